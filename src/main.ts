import { InputError } from './inputs/input-error.js';
import { type InputReader, readSettings, type Settings } from './inputs/settings.js';
import { deploymentNotReady } from './inputs/workflow-run.js';
import { annotate } from './report/annotations.js';
import { writeReports } from './report/index.js';
import type { RunOutcome } from './report/outcome.js';
import { findBaseline } from './run/baseline.js';
import { CheckRunWriter } from './run/check-runs.js';
import { judgeAgainst } from './run/compare.js';
import { runToOutcome } from './run/index.js';
import { openPullRequestThread } from './run/pr-comment.js';
import { findPullRequests, withPullRequestNote } from './run/pull-requests.js';
import { JobCancellation } from './run/signals.js';
import { STATE } from './run/state.js';
import { beginStep, debug, fail, notice } from './runner/log.js';
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

/** The main step: read the inputs, run, report. Every failure ends in a failed step, never a throw. */
export async function run(dependencies: RunDependencies = {}): Promise<void> {
  const { clock = systemClock, input, env, cancelSignal } = dependencies;
  beginStep();
  saveState(STATE.isPost, 'true');
  const job = new JobCancellation(clock);
  job.listen(cancelSignal);
  // Why the step fails; empty when it passes. `success` is written from this alone.
  const failures: string[] = [];
  let reported: { outcome: RunOutcome; settings: Settings } | undefined;
  let checks: CheckRunWriter | undefined;
  try {
    const read = await readSettings(input, env);
    const notReady = deploymentNotReady(read.workflow);
    if (notReady) notice(line`${notReady}`);
    // Before the run: a suite run's default note names the pull request found.
    const found = await findPullRequests(read, clock, job.signal);
    const settings = withPullRequestNote(read, found);
    checks = await CheckRunWriter.open(settings, clock, job);
    const ran = await runToOutcome(settings, clock, job, async (started) => checks?.started(started));
    const thread = await openPullRequestThread(ran, settings, found, clock, job.signal);
    const baseline = await findBaseline(settings, found, ran, thread, clock, job.signal);
    const outcome = judgeAgainst(ran, baseline, settings.failOn);
    const reports = await writeReports(outcome, settings);
    failures.push(...reports.failures);
    // With wait: false, none: the step that attaches with run-id writes it.
    if (outcome.status !== 'STARTED') setOutput('check-run-url', (await checks?.complete(outcome)) ?? '');
    setOutput('comment-url', (await thread.write(outcome, failures.length > 0)) ?? '');
    reported = { outcome, settings };
  } catch (error) {
    // No outcome was learned: the inputs are wrong, or something unexpected broke.
    setOutput('status', 'ERROR');
    if (error instanceof InputError) failures.push(error.message);
    else if (error instanceof Error) {
      for (const stackLine of error.stack?.split('\n') ?? []) debug(line`${stackLine}`);
      failures.push(`Unexpected error: ${error.message}`);
    } else failures.push(`Unexpected error: ${String(error)}`);
    // A required check must not wait for ever.
    await checks?.fail(failures.at(-1) ?? 'The step failed.').catch(() => undefined);
  } finally {
    job.dispose();
  }
  setOutput('success', String(failures.length === 0));
  for (const failure of failures) fail(line`${failure}`);
  // Last, so that the step's own warnings and failures come out of GitHub's ten of each first.
  if (reported) annotate(reported.outcome, reported.settings.summary);
}
