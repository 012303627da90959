import type { Settings } from '../inputs/settings.js';
import { commitTested, testsBranch } from '../inputs/workflow-run.js';
import {
  type CheckRunOwner,
  checkRunMarker,
  completedCheckRun,
  inProgressCheckRun,
} from '../report/check-run.js';
import type { RunOutcome } from '../report/outcome.js';
import { info, warning } from '../runner/log.js';
import { redact } from '../runner/secrets.js';
import { saveState } from '../runner/step.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import { Aborted, GitHubError } from '../service/errors.js';
import type { CheckRun, CheckRunFields, CheckRunWritten, GitHub } from '../service/github.js';
import { connectGitHub, type GitHubTask, logFailure } from './github-client.js';
import type { JobCancellation } from './signals.js';
import { STATE, stateOf } from './state.js';

/** A commit's check runs are read up to this many pages of 100, for every target at once. */
export const CHECK_RUN_PAGES = 3;

const WRITE: GitHubTask = {
  doing: 'write the check run',
  forbidden:
    "The github-token cannot write check runs: the workflow needs 'permissions: checks: write' (a token of a pull request from a fork is read-only on pull_request, and a personal access token cannot write check runs at all).",
};

type Target = Parameters<typeof checkRunMarker>[0];

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

/** What the writers of one step share: the commit, the connection, and the commit's check runs, listed once. */
interface Shared {
  github: () => GitHub;
  owner: CheckRunOwner;
  commit: string;
  loud: boolean;
  clock: Clock;
  list: () => Promise<CheckRun[]>;
}

/** One target's check run on the commit tested: in progress while the run runs, completed with the step's outcome. */
export class CheckRunWriter {
  private id?: number;
  private refused = false;

  private constructor(
    private readonly shared: Shared,
    private readonly name: string,
    private readonly index: number,
  ) {}

  /**
   * One writer per target; none where no check run is to be written: check-run 'false', wait
   * 'false', or nowhere to write it. The commit's check runs are listed once for every target.
   * Writes are not stopped by the job's cancellation, only bounded by its deadline, so that a
   * cancelled run's check run is completed too.
   */
  static async openAll(
    targets: Settings[],
    clock: Clock,
    job: JobCancellation,
  ): Promise<(CheckRunWriter | undefined)[]> {
    const none = targets.map(() => undefined);
    const [settings] = targets as [Settings];
    const commit = commitTested(settings.workflow);
    const [owner, repo] = (settings.workflow.repository ?? '').split('/');
    if (settings.checkRun === 'false' || !settings.wait || !commit || !owner || !repo) return none;
    const loud = settings.checkRun === 'true';
    if (!settings.githubToken) {
      const why = line`No check run: input 'github-token' is empty (it defaults to the workflow's token).`;
      loud ? warning(why) : info(why);
      return none;
    }
    const connect = await connectGitHub(settings, WRITE, clock, new AbortController().signal);
    if (!connect) return none;
    const github = () => connect({ owner, repo }, job.deadline);
    let listing: Promise<CheckRun[]> | undefined;
    const list = () => {
      listing ??= github().checkRunsOf(commit, CHECK_RUN_PAGES);
      return listing;
    };
    const shared: Shared = { github, owner: checkRunOwner(settings), commit, loud, clock, list };
    return targets.map((target, index) => new CheckRunWriter(shared, checkRunName(target), index));
  }

  private now(): string {
    return new Date(this.shared.clock.now()).toISOString();
  }

  /** Once the remote run has started. */
  async started(target: Target & Pick<RunOutcome, 'runId' | 'dashboardUrl'>): Promise<void> {
    const output = inProgressCheckRun(target, this.shared.owner);
    const fields: CheckRunFields = { status: 'in_progress', started_at: this.now(), output };
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
    const output = completedCheckRun(outcome, { owner: this.shared.owner, commit: this.shared.commit });
    const fields: CheckRunFields = { status: 'completed', conclusion, completed_at: this.now(), output };
    const written = await this.write(outcome, fields);
    if (written) saveState(stateOf(STATE.checkRunId, this.index), '');
    return written?.html_url ?? undefined;
  }

  /** An unexpected failure of the step: the check run it left in progress fails with it. */
  async fail(message: string): Promise<void> {
    if (this.id === undefined || this.refused) return;
    const output = { title: 'Could not learn the outcome', summary: redact(message) };
    const fields: CheckRunFields = {
      status: 'completed',
      conclusion: 'failure',
      completed_at: this.now(),
      output,
    };
    await this.shared.github().updateCheckRun(this.id, fields);
    saveState(stateOf(STATE.checkRunId, this.index), '');
  }

  /**
   * The first write looks for this target's check run on the commit (a re-run's, or a second
   * workflow's) and updates it; it creates one where there is none. Each write has its own budget.
   */
  private async write(target: Target, fields: CheckRunFields): Promise<CheckRunWritten | undefined> {
    if (this.refused) return undefined;
    const github = this.shared.github();
    try {
      if (this.id === undefined) {
        const marker = checkRunMarker(target, this.shared.owner);
        const runs = await this.shared.list();
        this.id = runs.find((run) => run.name === this.name && run.output.summary?.includes(marker))?.id;
      }
      const written =
        this.id === undefined
          ? await github.createCheckRun({ ...fields, name: this.name, head_sha: this.shared.commit })
          : await github.updateCheckRun(this.id, fields);
      this.id = written.id;
      if (fields.status === 'completed') {
        info(
          line`Check run '${this.name}' on ${this.shared.commit.slice(0, 7)}: ${fields.conclusion ?? ''}. ${written.html_url ?? ''}`,
        );
      }
      return written;
    } catch (error) {
      // A cancelled job still completes the check run: the post step, or the next write, does.
      if (error instanceof Aborted) return undefined;
      if (!(error instanceof GitHubError)) throw error;
      this.refused = error.status === 403 || error.status === 404;
      const task = { ...WRITE, doing: `write check run '${this.name}'` };
      // 'auto' asks for a check run where one can be had: a failure is a line, never a warning.
      logFailure(error, task, this.shared.loud ? warning : info);
      return undefined;
    }
  }
}

/** The post step: a check run the killed main step left in progress is completed as cancelled. */
export async function closeLeftoverCheckRun(
  settings: Settings,
  id: string,
  clock: Clock,
  signal: AbortSignal,
): Promise<void> {
  const [owner, repo] = (settings.workflow.repository ?? '').split('/');
  if (!/^\d+$/.test(id) || !owner || !repo || !settings.githubToken) return;
  const connect = await connectGitHub(settings, WRITE, clock, signal);
  const summary = 'The job was cancelled or stopped before the step could report the run.';
  await connect?.({ owner, repo }).updateCheckRun(Number(id), {
    status: 'completed',
    conclusion: 'cancelled',
    completed_at: new Date(clock.now()).toISOString(),
    output: { title: 'Cancelled', summary },
  });
  info(line`Completed the check run the main step left in progress (${id}) as cancelled.`);
}
