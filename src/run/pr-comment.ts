import type { SharedSettings } from '../inputs/settings.js';
import { type WorkflowRun, workflowRunUrl } from '../inputs/workflow-run.js';
import type { RunOutcome } from '../report/outcome.js';
import { renderStepComment, stepMarker } from '../report/pr-comment.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import { GitHubError } from '../service/errors.js';
import type { Comment, CreatedComment, GitHub } from '../service/github.js';
import { type GitHubTask, logFailure, type StepContext } from './github-client.js';
import type { PullRequestsOfRun } from './pull-requests.js';

/** The comment is written, never read for a result. */
export interface PullRequestThread {
  /** Gives the first URL written (`comment-url`). A failure only warns. */
  write(outcomes: RunOutcome[], stepFails: boolean): Promise<string | undefined>;
}

const COMMENT: GitHubTask = {
  doing: 'keep the pull request comment up to date',
  forbidden:
    "The github-token cannot write to the pull request: the workflow needs 'permissions: pull-requests: write'.",
};

/** Only where it can be the cause: GitHub gives a fork's pull_request runs a read-only token. */
function commentTask({ eventName, pullRequest }: WorkflowRun): GitHubTask {
  if (eventName !== 'pull_request' || !pullRequest?.fromFork) return COMMENT;
  const fork =
    'This pull request comes from a fork, whose pull_request runs get a read-only token that no permission can change: comment from a workflow_run workflow instead.';
  return { ...COMMENT, forbidden: `${COMMENT.forbidden} ${fork}` };
}

/**
 * The earlier comment is updated; one is created where none exists (with on-failure, only when the
 * step fails). Only while the commit tested is the pull request's head (an unknown one, from a
 * payload without it, cannot be judged).
 */
async function writeComment(
  thread: { github: GitHub; number: number; comment?: Comment; untrusted: boolean },
  body: string,
  options: { mayCreate: boolean; tested?: string; marker: string; task: GitHubTask },
): Promise<string | undefined> {
  const { github, number, comment } = thread;
  const { mayCreate, tested, marker, task } = options;
  if (!comment && !mayCreate) {
    info(line`No pull request comment: the step passed and there is no earlier comment to update.`);
    return undefined;
  }
  // Read just before writing: an older commit's run that ends last (a re-run, a slower workflow) must
  // not replace the comment of the newer head, nor become the next push's baseline.
  if (tested !== undefined) {
    const head = (await github.pull(number, true)).head.sha;
    if (head !== tested) {
      info(
        line`No pull request comment: this run tested ${tested.slice(0, 7)}, but pull request #${number}'s head is now ${head.slice(0, 7)} (a newer push; its run writes the comment).`,
      );
      return undefined;
    }
  }
  if (comment) {
    try {
      const url = await github.updateComment(comment.id, body);
      info(line`Updated the comment on pull request #${number}: ${url}`);
      return url;
    } catch (error) {
      // Deleted between the lookup and the update: a PATCH that answered 404 wrote nothing.
      if (!(error instanceof GitHubError && error.status === 404)) throw error;
      info(line`The comment on pull request #${number} was deleted meanwhile: writing it anew.`);
    }
  }
  const created = await github.createComment(number, body, marker);
  info(line`Commented on pull request #${number}: ${created.html_url}`);
  // Without the token's identity no earlier comment is its own to edit.
  if (thread.untrusted) return created.html_url;
  try {
    return await keepOneComment(github, { number, marker, body }, created);
  } catch (error) {
    logFailure(error, task);
    return created.html_url;
  }
}

/**
 * Two runs of one target that both found no comment both create one. After its create, each run
 * lists again and keeps the earliest of the token's own comments with this marker (with its body),
 * deleting the others: no run deletes the earliest and each deletes every later one it sees, so one
 * comment remains whatever the interleaving. Its author is the created comment's: the token's own.
 */
async function keepOneComment(
  github: GitHub,
  { number, marker, body }: { number: number; marker: string; body: string },
  created: CreatedComment,
): Promise<string> {
  const author = created.user?.id;
  if (author === undefined) return created.html_url;
  const [earliest, ...others] = await github.commentsBy(number, marker, author);
  if (earliest === undefined || (earliest.id === created.id && others.length === 0)) return created.html_url;
  const url = earliest.id === created.id ? created.html_url : await github.updateComment(earliest.id, body);
  for (const other of others) await github.deleteComment(other.id);
  info(
    line`Another run of this target commented on pull request #${number} at the same time: kept the earliest comment, ${url}, and deleted ${others.length} other${others.length === 1 ? '' : 's'}.`,
  );
  return url;
}

/** Why no comment is written for these outcomes; undefined when one is. */
function whySkipped(outcomes: RunOutcome[], found: PullRequestsOfRun): string | undefined {
  if (outcomes.every((outcome) => outcome.status === 'STARTED'))
    return 'the run was started with wait: false';
  // A newer push usually cancels this run; its comment must not be overwritten by the old one.
  if (outcomes.some((outcome) => outcome.status === 'CANCELLED')) return 'the job was cancelled';
  return found.pullRequests[0] ? undefined : found.whyNone;
}

/** The step's one comment on each pull request found, looked up once the runs ended. Never fails the step. */
export async function openPullRequestThread(
  outcomes: RunOutcome[],
  settings: SharedSettings,
  found: PullRequestsOfRun,
  step: StepContext,
): Promise<PullRequestThread> {
  const [firstPullRequest] = found.pullRequests;
  const headSha = firstPullRequest?.headSha;
  const none: PullRequestThread = { write: async () => undefined };
  if (settings.prComment === 'off') return none;
  const skip = whySkipped(outcomes, found);
  if (skip) info(line`No pull request comment: ${skip}.`);
  if (skip || !firstPullRequest) return none;
  const task = commentTask(settings.workflow);
  const github = await step.github();
  if (!github) return none;
  const marker = stepMarker(outcomes);
  const threads = [];
  for (const { number } of found.pullRequests) {
    const lookup = github.findComments(number, marker).then(({ comments, untrusted }) => ({
      github,
      number,
      untrusted,
      comment: comments.at(-1),
    }));
    threads.push(await lookup.catch((error) => logFailure(error, task)));
  }
  const opened = threads.filter((thread) => thread !== undefined);
  if (opened.length === 0) return none;
  const runUrl = workflowRunUrl(settings.workflow, { attempt: true });
  const write = async (ran: RunOutcome[], stepFails: boolean) => {
    const body = renderStepComment(ran, { headSha, runUrl });
    const mayCreate = stepFails || settings.prComment !== 'on-failure';
    const urls = [];
    for (const thread of opened) {
      const written = writeComment(thread, body, { mayCreate, tested: headSha, marker, task });
      urls.push(await written.catch((error) => logFailure(error, task)));
    }
    return urls.find((url) => url !== undefined);
  };
  return { write };
}
