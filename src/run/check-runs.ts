import type { Settings } from '../inputs/settings.js';
import { commitTested, testsBranch } from '../inputs/workflow-run.js';
import {
  type CheckRunOwner,
  checkRunMarker,
  completedCheckRun,
  inProgressCheckRun,
} from '../report/check-run.js';
import type { RunOutcome } from '../report/outcome.js';
import type { TargetKey } from '../report/pr-comment.js';
import { info, warning } from '../runner/log.js';
import { redact } from '../runner/secrets.js';
import { saveState } from '../runner/step.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { Aborted, GitHubError, isForbidden } from '../service/errors.js';
import type {
  CheckRun,
  CheckRunConclusion,
  CheckRunFields,
  CheckRunOutput,
  CheckRunWritten,
  GitHub,
} from '../service/github.js';
import { type GitHubTask, logFailure, type StepContext } from './github-client.js';
import { identityOf } from './index.js';
import { STATE, stateOf } from './state.js';

const WRITE: GitHubTask = {
  doing: 'write the check run',
  forbidden:
    "The github-token cannot write check runs: the workflow needs 'permissions: checks: write' (a token of a pull request from a fork is read-only on pull_request, and a personal access token cannot write check runs at all).",
};

/** The name branch protection requires: check-name, else one derived from the target. */
export function checkRunName(settings: Pick<Settings, 'checkName' | 'target' | 'environment'>): string {
  if (settings.checkName) return settings.checkName;
  const { target } = settings;
  const what =
    target.kind === 'project'
      ? `project ${target.projectId}`
      : `suite ${target.kind === 'suite-attach' ? (target.testSuiteId ?? `run ${target.runId}`) : target.testSuiteId}`;
  const playwright = target.kind === 'project' ? target.playwrightProjectName : undefined;
  const details = [playwright, settings.environment].filter(Boolean);
  return `Test run: ${what}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
}

export function checkRunOwner(settings: Pick<Settings, 'workflow' | 'pullRequestNumber'>): CheckRunOwner {
  return testsBranch(settings.workflow, settings.pullRequestNumber) ? 'branch' : 'pull-request';
}

const CONCLUSIONS = { TIMEDOUT: 'timed_out', CANCELLED: 'cancelled' } as const;

/** The one payload of a completed check run, whichever way the step ended. */
function completed(conclusion: CheckRunConclusion, output: CheckRunOutput, clock: Clock): CheckRunFields {
  return { status: 'completed', conclusion, completed_at: new Date(clock.now()).toISOString(), output };
}

/** What the writers of one step share: the connection, whose listing of the commit's check runs is made once. */
interface WritersContext {
  github: GitHub;
  owner: CheckRunOwner;
  commit: string;
  /** check-run 'true': a check run that cannot be written is a warning ('auto': a line). */
  warnOnFailure: boolean;
  clock: Clock;
}

/** One target's check run on the commit tested: in progress while the run runs, completed with the step's outcome. */
export class CheckRunWriter {
  private id?: number;
  private refused = false;

  private constructor(
    private readonly context: WritersContext,
    private readonly name: string,
    private readonly target: TargetKey,
    private readonly index: number,
  ) {}

  /**
   * One writer per target; none where no check run is to be written: check-run 'false', wait
   * 'false', or nowhere to write it. Writes are not stopped by the job's cancellation, only bounded
   * by its deadline, so that a cancelled run's check run is completed too.
   */
  static async openAll(targets: Settings[], step: StepContext): Promise<(CheckRunWriter | undefined)[]> {
    const none = targets.map(() => undefined);
    const [settings] = targets as [Settings];
    const commit = commitTested(settings.workflow);
    if (settings.checkRun === 'false' || !settings.wait || !commit || !settings.workflow.repository)
      return none;
    const warnOnFailure = settings.checkRun === 'true';
    if (!settings.githubToken) {
      const why = line`No check run: input 'github-token' is empty (it defaults to the workflow's token).`;
      warnOnFailure ? warning(why) : info(why);
      return none;
    }
    const github = await step.github();
    if (!github) return none;
    const owner = checkRunOwner(settings);
    const context: WritersContext = { github, owner, commit, warnOnFailure, clock: step.clock };
    return targets.map(
      (target, index) => new CheckRunWriter(context, checkRunName(target), identityOf(target), index),
    );
  }

  /** Once the remote run has started; before it is polled, so that a killed step leaves its id to the post step. */
  async started(target: TargetKey & Pick<RunOutcome, 'runId' | 'dashboardUrl'>): Promise<void> {
    const output = inProgressCheckRun(target, this.context.owner);
    const startedAt = new Date(this.context.clock.now()).toISOString();
    const fields: CheckRunFields = { status: 'in_progress', started_at: startedAt, output };
    await this.write(target, fields);
    if (this.id !== undefined) saveState(stateOf(STATE.checkRunId, this.index), String(this.id));
  }

  /** The check run's URL (check-run-url), when one was written. */
  async complete(outcome: RunOutcome): Promise<string | undefined> {
    if (outcome.status === 'STARTED') return undefined;
    const conclusion =
      outcome.status in CONCLUSIONS
        ? CONCLUSIONS[outcome.status as keyof typeof CONCLUSIONS]
        : outcome.success
          ? 'success'
          : 'failure';
    const { owner, commit, clock } = this.context;
    const output = completedCheckRun(outcome, { owner, commit });
    const written = await this.write(outcome, completed(conclusion, output, clock));
    if (written) saveState(stateOf(STATE.checkRunId, this.index), '');
    return written?.html_url ?? undefined;
  }

  /** A step that failed before it learned the outcome (an input error, say): its check run fails with it. */
  async fail(message: string): Promise<void> {
    const summary = `${message}\n\n${checkRunMarker(this.target, this.context.owner)}\n`;
    const output = { title: 'Could not learn the outcome', summary: redact(summary) };
    const fields = completed('failure', output, this.context.clock);
    if (await this.write(this.target, fields)) saveState(stateOf(STATE.checkRunId, this.index), '');
  }

  /**
   * The first write looks for this target's check run on the commit (a re-run's, or a second
   * workflow's) and updates it; it creates one where there is none. Each write has its own budget.
   */
  private async write(target: TargetKey, fields: CheckRunFields): Promise<CheckRunWritten | undefined> {
    if (this.refused) return undefined;
    const { github, commit, owner } = this.context;
    const marker = checkRunMarker(target, owner);
    const ours = (runs: CheckRun[]) =>
      runs.find((run) => run.name === this.name && run.output.summary?.includes(marker));
    try {
      this.id ??= ours(await github.checkRunsOf(commit))?.id;
      const made = async () => ours(await github.checkRunsOf(commit, true));
      const written =
        this.id === undefined
          ? await github.createCheckRun({ ...fields, name: this.name, head_sha: commit }, made)
          : await github.updateCheckRun(this.id, fields);
      this.id = written.id;
      if (fields.status === 'completed') {
        info(
          line`Check run '${this.name}' on ${commit.slice(0, 7)}: ${fields.conclusion ?? ''}. ${written.html_url ?? ''}`,
        );
      }
      return written;
    } catch (error) {
      // A cancelled job still completes the check run: the post step, or the next write, does.
      if (error instanceof Aborted) return undefined;
      if (!(error instanceof GitHubError)) throw error;
      this.refused = isForbidden(error);
      const task = { ...WRITE, doing: `write check run '${this.name}'` };
      // 'auto' asks for a check run where one can be had: a failure is a line, never a warning.
      logFailure(error, task, this.context.warnOnFailure ? warning : info);
      return undefined;
    }
  }
}

/** The post step: a check run the killed main step left in progress is completed as cancelled. */
export async function closeLeftoverCheckRun(id: string, step: StepContext): Promise<void> {
  if (!/^\d+$/.test(id)) return;
  const github = await step.github();
  const summary = 'The job was cancelled or stopped before the step could report the run.';
  await github?.updateCheckRun(
    Number(id),
    completed('cancelled', { title: 'Cancelled', summary }, step.clock),
  );
  info(line`Completed the check run the main step left in progress (${id}) as cancelled.`);
}
