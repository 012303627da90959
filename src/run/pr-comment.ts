import type { Settings } from '../inputs/settings.js';
import { type PullRequestRef, workflowRunUrl } from '../inputs/workflow-run.js';
import type { RunOutcome } from '../report/outcome.js';
import { commentMarker } from '../report/pr-comment.js';
import { info, warning } from '../runner/log.js';
import { line } from '../runner/text.js';
import type { Clock } from '../service/clock.js';
import {
  type Comment,
  type CommentContext,
  GitHubError,
  type Identity,
  type PullRequest,
  PullRequestComments,
} from '../service/github.js';
import { githubClient } from './github-client.js';
import type { PullRequestsOfRun } from './pull-requests.js';

interface CommentResult {
  /** The comment written (`comment-url`), if one was. */
  url?: string;
}

/** Why no comment is written for this outcome, if none is. */
function reasonToSkip(outcome: RunOutcome): string | undefined {
  if (outcome.status === 'STARTED') return 'the run was started with wait: false';
  // A newer push usually cancels this run; its comment must not be overwritten by the old one.
  if (outcome.status === 'CANCELLED') return 'the job was cancelled';
  return undefined;
}

/**
 * Who the token acts as, so that only its own comments are edited. When GitHub cannot tell, no
 * earlier comment is the action's: another app's copy of the marker must not be edited or believed.
 */
async function identityOf(
  comments: PullRequestComments,
  context: CommentContext,
): Promise<Identity | undefined> {
  let reason: string;
  try {
    const identity = await comments.identity(context);
    if (identity) return identity;
    reason = 'GitHub did not say';
  } catch (error) {
    if (!(error instanceof GitHubError)) throw error;
    reason = error.message;
  }
  info(
    line`Could not learn who the github-token acts as (${reason}): no earlier comment is updated or compared with, a new one is written.`,
  );
  return undefined;
}

/** The warning for a comment that could not be written. */
function explain(error: unknown, pullRequest: PullRequest): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof GitHubError && (error.status === 403 || error.status === 404)) {
    return `${reason} The github-token cannot write to pull request #${pullRequest.number}: the workflow needs 'permissions: pull-requests: write', and a pull request from a fork gets a read-only token on pull_request events, which no permission can change.`;
  }
  return `Could not keep the pull request comment up to date. ${reason}`;
}

/** The pull request's comments, through Octokit over the project's transport, and the budget they share. */
async function commentsOn(
  settings: Settings,
  pullRequest: PullRequest,
  token: string,
  clock: Clock,
  signal: AbortSignal,
): Promise<{ comments: PullRequestComments; context: CommentContext }> {
  const { octokit, context } = await githubClient(settings, token, clock, signal);
  return { comments: new PullRequestComments(octokit, pullRequest, settings.workflow.apiUrl), context };
}

/** Writes this run's comment as `pr-comment` says; a failure is one warning. */
async function writeComment(
  { comments, context }: { comments: PullRequestComments; context: CommentContext },
  existing: Comment | undefined,
  settings: Settings,
  pullRequest: PullRequest,
  body: string,
  stepFails: boolean,
): Promise<CommentResult> {
  try {
    if (existing) {
      try {
        const updated = await comments.update(existing, body, context);
        info(line`Updated the comment on pull request #${pullRequest.number}: ${updated.url}`);
        return { url: updated.url };
      } catch (error) {
        // Deleted between the lookup and the update: a PATCH that answered 404 wrote nothing.
        if (!(error instanceof GitHubError && error.status === 404)) throw error;
        info(
          line`The comment on pull request #${pullRequest.number} was deleted meanwhile: writing it anew.`,
        );
      }
    } else if (settings.prComment === 'on-failure' && !stepFails) {
      info(line`No pull request comment: the step passed and there is no earlier comment to update.`);
      return {};
    }
    const created = await comments.create(body, context);
    info(line`Commented on pull request #${pullRequest.number}: ${created.url}`);
    return { url: created.url };
  } catch (error) {
    warning(line`${explain(error, pullRequest)}`);
    return {};
  }
}

/** This target's comment on the pull request(s): what an earlier run left there, and how to write this run's. */
export interface PullRequestThread {
  /** The body of the comment an earlier run of this target wrote on the first pull request, if there is one. */
  previousBody?: string;
  /** GitHub could not say who the token acts as: no earlier comment is believed. */
  untrusted: boolean;
  /**
   * Writes this run's comment, as `pr-comment` says: the earlier one is updated; one is created
   * only where none exists (with on-failure, only when the step fails). A failure only warns.
   */
  write(body: string, stepFails: boolean): Promise<CommentResult>;
}

/** This target's comment on one pull request; undefined when the lookup failed (one warning). */
async function openOne(
  outcome: RunOutcome,
  settings: Settings,
  pullRequest: PullRequestRef,
  token: string,
  clock: Clock,
  signal: AbortSignal,
): Promise<PullRequestThread | undefined> {
  const github = await commentsOn(settings, pullRequest, token, clock, signal);
  let untrusted = false;
  const identity = async () => {
    const found = await identityOf(github.comments, github.context);
    untrusted = found === undefined;
    return found;
  };
  let existing: Comment | undefined;
  try {
    existing = await github.comments.find(commentMarker(outcome), github.context, identity);
  } catch (error) {
    warning(line`${explain(error, pullRequest)}`);
    return undefined;
  }
  const write = (body: string, stepFails: boolean) =>
    writeComment(github, existing, settings, pullRequest, body, stepFails);
  return { previousBody: existing?.body, untrusted, write };
}

/**
 * Looks up this target's comment on each pull request of the run, before the reports are written
 * (the comparison with the earlier run needs it), when a comment is due at all; undefined when
 * none is (each reason is one log line) or every lookup failed (one warning each). The first pull
 * request's comment is the one compared with; `write` writes them all and gives the first's URL.
 * It never fails the step.
 */
export async function openPullRequestThread(
  outcome: RunOutcome,
  settings: Settings,
  found: PullRequestsOfRun,
  clock: Clock,
  signal: AbortSignal,
): Promise<PullRequestThread | undefined> {
  if (settings.prComment === 'off') return undefined;
  const skip = reasonToSkip(outcome) ?? (found.pullRequests.length === 0 ? found.whyNone : undefined);
  if (skip) info(line`No pull request comment: ${skip}.`);
  if (skip || found.pullRequests.length === 0) return undefined;
  const token = settings.githubToken;
  if (!token) {
    warning(
      line`Could not comment on the pull request: input 'github-token' is empty (it defaults to the workflow's token).`,
    );
    return undefined;
  }
  const threads: (PullRequestThread | undefined)[] = [];
  for (const pullRequest of found.pullRequests) {
    threads.push(await openOne(outcome, settings, pullRequest, token, clock, signal));
  }
  const [first] = threads;
  const opened = threads.filter((thread) => thread !== undefined);
  if (opened.length === 0) return undefined;
  const write = async (body: string, stepFails: boolean) => {
    const urls: (string | undefined)[] = [];
    for (const thread of opened) urls.push((await thread.write(body, stepFails)).url);
    return { url: urls.find((url) => url !== undefined) };
  };
  return { previousBody: first?.previousBody, untrusted: first?.untrusted ?? false, write };
}

/** Why there is no earlier comment of this target to compare with, for fail-on 'new''s fallback. */
export function whyNoEarlierComment(
  settings: Settings,
  found: PullRequestsOfRun,
  thread: PullRequestThread | undefined,
): string {
  if (settings.prComment === 'off') return "pr-comment is 'off'";
  if (found.pullRequests.length === 0) return found.whyNone ?? 'the pull request could not be found';
  if (!thread) return 'the pull request comment could not be read';
  return thread.untrusted
    ? 'GitHub could not say who the github-token acts as, so no earlier comment is trusted'
    : 'this is the first run of this target on the pull request';
}

/** What the comment tells besides the outcome: the commit tested and the workflow run. */
export function commentContextOf(
  settings: Settings,
  found: PullRequestsOfRun,
): { headSha?: string; runUrl?: string } {
  return {
    headSha: found.pullRequests[0]?.headSha,
    runUrl: workflowRunUrl(settings.workflow, { attempt: true }),
  };
}
