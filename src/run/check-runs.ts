import type { Settings } from '../inputs/settings.js';
import { commitTested } from '../inputs/workflow-run.js';
import { CHECK_RUN_MARKER, completedCheckRun, inProgressCheckRun } from '../report/check-run.js';
import { FINISHED, type OutputStatus, type RunOutcome } from '../report/outcome.js';
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

const CONCLUSIONS: Partial<Record<OutputStatus, CheckRunConclusion>> = {
  TIMEDOUT: 'timed_out',
  CANCELLED: 'cancelled',
};

/** The one payload of a completed check run, whichever way the step ended. */
function completed(conclusion: CheckRunConclusion, output: CheckRunOutput, clock: Clock): CheckRunFields {
  return { status: 'completed', conclusion, completed_at: new Date(clock.now()).toISOString(), output };
}

/** What the writers of one step share: the connection, whose listing of the commit's check runs is made once. */
interface WritersContext {
  github: GitHub;
  commit: string;
  /** check-run 'true': a check run that cannot be written is a warning ('auto': a line). */
  warnOnFailure: boolean;
  clock: Clock;
}

/**
 * One target's check run on the commit tested: in progress while the run runs, completed with the
 * step's outcome. A re-run (or a second workflow) of a commit whose check run of this target is
 * completed leaves it as it is while it runs, and writes it only with a run that finished: a
 * cancelled re-run never erases a result (GitHub does not reliably reopen a completed check run).
 */
export class CheckRunWriter {
  private id?: number;
  private refused = false;
  /** The completed check run a re-run found, and its URL: written again only with a finished run. */
  private kept?: { url?: string };

  private constructor(
    private readonly context: WritersContext,
    private readonly name: string,
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
    const github = await step.github();
    if (!github) return none;
    const context: WritersContext = { github, commit, warnOnFailure, clock: step.clock };
    return targets.map((target, index) => new CheckRunWriter(context, checkRunName(target), index));
  }

  /** Once the remote run has started; before it is polled, so that a killed step leaves its id to the post step. */
  async started(run: Pick<RunOutcome, 'mode' | 'runId' | 'dashboardUrl'>): Promise<void> {
    if (this.refused) return;
    let found: CheckRun | undefined;
    try {
      found = await this.lookUp();
    } catch (error) {
      return this.failed(error);
    }
    if (found?.status === 'completed') {
      this.kept = { url: found.html_url ?? undefined };
      info(
        line`Check run '${this.name}' on ${this.context.commit.slice(0, 7)} is completed already: left as it is unless this run finishes.`,
      );
      return;
    }
    const startedAt = new Date(this.context.clock.now()).toISOString();
    const output = inProgressCheckRun(run);
    await this.write({ status: 'in_progress', started_at: startedAt, output });
    if (this.id !== undefined) saveState(stateOf(STATE.checkRunId, this.index), String(this.id));
  }

  /** The check run's URL (check-run-url), when there is one. */
  async complete(outcome: RunOutcome): Promise<string | undefined> {
    if (outcome.status === 'STARTED') return undefined;
    if (this.kept && !FINISHED.includes(outcome.status)) {
      info(line`Check run '${this.name}' left as it was: this run did not finish.`);
      return this.kept.url;
    }
    const conclusion = CONCLUSIONS[outcome.status] ?? (outcome.success ? 'success' : 'failure');
    const written = await this.write(completed(conclusion, completedCheckRun(outcome), this.context.clock));
    if (written) saveState(stateOf(STATE.checkRunId, this.index), '');
    return written?.html_url ?? undefined;
  }

  /** A step that failed before it learned the outcome (an input error, say): its check run fails with it. */
  async fail(message: string): Promise<void> {
    if (this.kept) return;
    const summary = `${message}\n\n${CHECK_RUN_MARKER}\n`;
    const output = { title: 'Could not learn the outcome', summary: redact(summary) };
    const fields = completed('failure', output, this.context.clock);
    if (await this.write(fields)) saveState(stateOf(STATE.checkRunId, this.index), '');
  }

  private readonly isOurs = (run: CheckRun) =>
    run.name === this.name && run.output.summary?.includes(CHECK_RUN_MARKER) === true;

  /** This target's check run on the commit (a re-run's, or a second workflow's), when there is one. */
  private async lookUp(fresh = false): Promise<CheckRun | undefined> {
    const found = (await this.context.github.checkRunsOf(this.context.commit, fresh)).find(this.isOurs);
    this.id ??= found?.id;
    return found;
  }

  /** Updates this target's check run, or creates one where there is none. Each write has its own budget. */
  private async write(fields: CheckRunFields): Promise<CheckRunWritten | undefined> {
    if (this.refused) return undefined;
    const { github, commit } = this.context;
    try {
      if (this.id === undefined) await this.lookUp();
      const made = () => this.lookUp(true);
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
      this.failed(error);
      return undefined;
    }
  }

  private failed(error: unknown): void {
    // A cancelled job still completes the check run: the post step, or the next write, does.
    if (error instanceof Aborted) return;
    if (!(error instanceof GitHubError)) throw error;
    this.refused = isForbidden(error);
    const task = { ...WRITE, doing: `write check run '${this.name}'` };
    // 'auto' asks for a check run where one can be had: a failure is a line, never a warning.
    logFailure(error, task, this.context.warnOnFailure ? warning : info);
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
