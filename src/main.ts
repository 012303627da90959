import { InputError } from './inputs/input-error.js';
import { utcDay } from './inputs/quarantine.js';
import {
  eachTarget,
  InputErrorWithTargets,
  type InputReader,
  readSettings,
  type Settings,
  type StepSettings,
} from './inputs/settings.js';
import { commitTested, deploymentNotReady } from './inputs/workflow-run.js';
import { annotate } from './report/annotations.js';
import { writeReports } from './report/index.js';
import type { RunOutcome } from './report/outcome.js';
import { findBaseline } from './run/baseline.js';
import { CheckRunWriter, checkRunName } from './run/check-runs.js';
import { openStep, type StepContext } from './run/github-client.js';
import { runTargets } from './run/index.js';
import { judgeAgainst } from './run/judgment.js';
import { openPullRequestThread } from './run/pr-comment.js';
import { findPullRequests, withPullRequestNote } from './run/pull-requests.js';
import { JobCancellation } from './run/signals.js';
import { STATE } from './run/state.js';
import { beginStep, debug, fail, notice, reason, warning } from './runner/log.js';
import { saveState, setOutput } from './runner/step.js';
import { line } from './runner/text.js';
import { type Clock, systemClock } from './service/clock.js';

interface RunDependencies {
  clock?: Clock;
  input?: InputReader;
  env?: NodeJS.ProcessEnv;
  /** Replaces the process signal handlers, for tests that cancel in-process. */
  cancelSignal?: AbortSignal;
}

/** What the step has opened by the time something fails: its connection and its check runs. */
interface Opened {
  step?: StepContext;
  checks: (CheckRunWriter | undefined)[];
}

/** The main step: read the inputs, run, report. Every failure ends in a failed step, never a throw. */
export async function run(dependencies: RunDependencies = {}): Promise<void> {
  const { clock = systemClock, input, env, cancelSignal } = dependencies;
  beginStep();
  saveState(STATE.isPost, 'true');
  const job = new JobCancellation(clock);
  job.listen(cancelSignal);
  const opened: Opened = { checks: [] };
  // Why the step fails; empty when it passes. `success` is written from this alone.
  const failures: string[] = [];
  let reported: { outcomes: RunOutcome[]; summary: boolean } | undefined;
  try {
    const settings = await readSettings(input, env);
    const step = openStep(settings, clock, job);
    opened.step = step;
    const outcomes = await runAndJudge(settings, step, opened);
    const reports = await writeReports(outcomes.checked, settings);
    failures.push(...reports.failures);
    setOutput('comment-url', (await outcomes.thread.write(outcomes.checked, failures.length > 0)) ?? '');
    reported = { outcomes: outcomes.checked, summary: settings.summary };
  } catch (error) {
    failures.push(await failedStep(error, opened, clock, job));
  } finally {
    job.dispose();
  }
  const requests = await opened.step?.requestCount();
  if (requests) debug(line`GitHub requests of this step: ${requests}.`);
  setOutput('success', String(failures.length === 0));
  for (const failure of failures) fail(line`${failure}`);
  // Last, so that the step's own warnings and failures come out of GitHub's ten of each first.
  if (reported) annotate(reported.outcomes, reported.summary);
}

/** Every target run, judged against its baseline, its check run completed. */
async function runAndJudge(settings: StepSettings, step: StepContext, opened: Opened) {
  const notReady = deploymentNotReady(settings.workflow);
  if (notReady) notice(line`${notReady}`);
  // Before the runs: a suite run's default note names the pull request found.
  const found = await findPullRequests(settings, step);
  const targets = eachTarget(settings).map((target) => withPullRequestNote(target, found));
  const checks = await CheckRunWriter.openAll(targets, step);
  opened.checks = checks;
  const ran = await runTargets(targets, step, async (index, started) => checks[index]?.started(started));
  const thread = await openPullRequestThread(ran, settings, found, step);
  const commit = commitTested(settings.workflow);
  const outcomes = await Promise.all(
    ran.map(async (outcome, index) => {
      const target = targets[index] as Settings;
      const baseline = await findBaseline(target, found, step);
      const context = { of: found.of, commit, name: checkRunName(target), today: utcDay(step.clock.now()) };
      return judgeAgainst(outcome, baseline, target, context);
    }),
  );
  // Completed before the reports, so that the outputs carry each check run's URL.
  const checked = await Promise.all(
    outcomes.map(async (outcome, index) => ({
      ...outcome,
      checkRunUrl: await checks[index]?.complete(outcome),
    })),
  );
  return { checked, thread };
}

/**
 * No outcome was learned: the inputs are wrong, or something unexpected broke. A required check
 * must not wait for ever: every known target's check run completes with the reason, which is returned.
 */
async function failedStep(
  error: unknown,
  opened: Opened,
  clock: Clock,
  job: JobCancellation,
): Promise<string> {
  setOutput('status', 'ERROR');
  if (error instanceof Error && !(error instanceof InputError)) {
    for (const stackLine of error.stack?.split('\n') ?? []) debug(line`${stackLine}`);
  }
  const why = error instanceof InputError ? error.message : `Unexpected error: ${reason(error)}`;
  const known = error instanceof InputErrorWithTargets ? error.targets : undefined;
  if (known?.[0]) {
    opened.step = openStep(known[0], clock, job);
    opened.checks = await CheckRunWriter.openAll(known, opened.step);
  }
  for (const writer of opened.checks) {
    await writer
      ?.fail(why)
      .catch((failure) => warning(line`Could not complete the check run: ${reason(failure)}`));
  }
  return why;
}
