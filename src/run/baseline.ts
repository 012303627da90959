import type { Settings } from '../inputs/settings.js';
import { commitTested } from '../inputs/workflow-run.js';
import { type ResultRecord, readRecord } from '../report/record.js';
import { info } from '../runner/log.js';
import { line } from '../runner/text.js';
import { Aborted, GitHubError, isForbidden } from '../service/errors.js';
import type { GitHub } from '../service/github.js';
import { checkRunName } from './check-runs.js';
import { type GitHubTask, logFailure, type StepContext, usesGitHub } from './github-client.js';
import type { PullRequestsOfRun } from './pull-requests.js';

/** A commit without a record (its run was skipped) is passed over for its first parent, this many times. */
const LOOKBACK_COMMITS = 5;
/** Only records written by this app count: every workflow's token acts as it. */
const ACTIONS_APP = 'github-actions';
/** The search among the workflow's runs: requests in all, pages of the commits after, candidates confirmed. */
const SEARCH_MAX_REQUESTS = 10;
const AFTER_MAX_PAGES = 3;
const MAX_CANDIDATES = 5;

const READ: GitHubTask = {
  doing: "read the base branch's results",
  forbidden: "The github-token needs 'checks: read' (and 'pull-requests: read' on a pull request).",
};

/**
 * What a run is compared with: the base branch's record (for a pull request, at the merge base,
 * with the branch's newest record beside it), or why there is nothing.
 */
export type Baseline =
  | { kind: 'found'; record: ResultRecord; newest?: ResultRecord; against: string; base: string }
  /** `whyNone` undefined: no comparison was asked for. */
  | { kind: 'none'; whyNone?: string };
const none = (whyNone?: string): Baseline => ({ kind: 'none', whyNone });
const short = (sha: string) => sha.slice(0, 7);

/**
 * The one rule. A pull request's baseline is its base branch's record at the nearest ancestor of
 * the merge base that has one, with the base branch's newest record; a branch's own run's is its
 * record at the nearest earlier ancestor of the commit. Nothing else: not a pull request's own
 * earlier runs, not a re-run's first attempt, not the comment.
 */
export async function findBaseline(
  settings: Settings,
  found: PullRequestsOfRun,
  step: StepContext,
): Promise<Baseline> {
  const { workflow } = settings;
  const commit = commitTested(workflow);
  if (!usesGitHub(settings)) return none();
  if (!commit || !workflow.repository) return none('the commit tested is not known');
  const github = await step.github();
  if (!github) return none('GitHub could not be used');
  const number = found.pullRequests[0]?.number;
  if (found.of === 'pull-request' && number === undefined) {
    return none(found.whyNone ?? 'the pull request could not be found');
  }
  try {
    const name = checkRunName(settings);
    const search = new Search(github, await github.appId(ACTIONS_APP), name, workflow.workflowFile);
    if (number === undefined) {
      const branch = found.branch;
      // A merge queue's commit is compared with the base branch's commit it was built on, itself included.
      const mergeGroupBase = workflow.mergeGroup?.baseSha;
      const previous = await search.nearest(branch, mergeGroupBase ?? commit, mergeGroupBase !== undefined);
      if (!previous) return none(`no earlier commit of ${branch ?? 'this branch'} has a result of '${name}'`);
      const against = `${short(previous.record.commit)} (${mergeGroupBase ? `${branch}'s result` : "this branch's previous result"})`;
      return { kind: 'found', record: previous.record, against, base: branch ?? 'this branch' };
    }
    // Read fresh: the payload's base is the one of the pull request's last update, and a re-run reuses it.
    const { base } = await github.pull(number);
    if (!base.ref) return none("GitHub did not name the pull request's base branch");
    const mergeBase = await github.mergeBase(base.ref, commit);
    const atMergeBase = await search.nearest(base.ref, mergeBase, true);
    if (!atMergeBase) {
      return none(`${base.ref} has no result of '${name}' at or before the merge base ${short(mergeBase)}`);
    }
    const newest = base.sha ? await search.nearest(base.ref, base.sha, true) : undefined;
    const [at, latest] = [atMergeBase.record.commit, newest?.record.commit];
    const also = latest && latest !== at ? ` and its newest result ${short(latest)}` : '';
    return {
      kind: 'found',
      record: atMergeBase.record,
      newest: newest?.record,
      against: `${base.ref} at ${short(at)}${also} (the base branch)`,
      base: base.ref,
    };
  } catch (error) {
    if (error instanceof Aborted) return none('the job was cancelled');
    if (!(error instanceof GitHubError)) throw error;
    logFailure(error, READ, info);
    return none("the base branch's results could not be read");
  }
}

type Found = { sha: string; record: ResultRecord };

/** Finds records: among this workflow's runs of a branch within a budget of requests, then by first parents. */
class Search {
  constructor(
    private readonly github: GitHub,
    private readonly appId: number,
    private readonly name: string,
    private readonly workflowFile: string | undefined,
  ) {}

  /**
   * The record at `sha` (`inclusive`) or its nearest ancestor that has one. One page of the
   * workflow's completed runs of the branch that ran (or re-ran), those whose commit came after
   * `sha` passed over, each remaining one's ancestry confirmed; at most 10 requests. Then round 5's
   * look-back of first parents.
   */
  async nearest(branch: string | undefined, sha: string, inclusive: boolean): Promise<Found | undefined> {
    if (this.workflowFile && branch) {
      try {
        const found = await this.amongRuns(this.workflowFile, branch, sha, inclusive);
        if (found) return found;
        info(
          line`No run of ${this.workflowFile} on ${branch} has a result of '${this.name}' at or before ${short(sha)} within the search's ${SEARCH_MAX_REQUESTS} requests: looking back ${LOOKBACK_COMMITS} commits instead.`,
        );
      } catch (error) {
        if (!(error instanceof GitHubError)) throw error;
        const advice = isForbidden(error) ? " (the workflow needs 'permissions: actions: read')" : '';
        info(
          line`Could not search this workflow's runs of ${branch}${advice}: looking back ${LOOKBACK_COMMITS} commits instead. ${error.message}`,
        );
      }
    }
    let here = inclusive ? sha : await this.github.firstParent(sha);
    for (let looked = 0; here !== undefined && looked < LOOKBACK_COMMITS; looked++) {
      const record = await this.at(here);
      if (record) return { sha: here, record };
      here = await this.github.firstParent(here);
    }
    return undefined;
  }

  private async amongRuns(file: string, branch: string, sha: string, inclusive: boolean) {
    const { github } = this;
    const ran = (await github.workflowRuns(file, branch)).filter(
      (run) =>
        !PULL_REQUEST_EVENTS.includes(run.event) &&
        (run.conclusion === 'success' || run.conclusion === 'failure' || (run.run_attempt ?? 1) > 1),
    );
    let requests = 1;
    const commits = [...new Set(ran.map((run) => run.head_sha))].filter((each) => each !== sha);
    // The commit itself is the nearest there is.
    if (inclusive && ran.some((run) => run.head_sha === sha)) {
      requests++;
      const record = await this.at(sha);
      if (record) return { sha, record };
    }
    if (commits.length === 0) return undefined;
    const after = await github.commitsAfter(sha, branch, AFTER_MAX_PAGES);
    requests += Math.min(AFTER_MAX_PAGES, Math.ceil((after.size + 1) / 100));
    // Nearest first, by ancestry, never by time: a re-run of an old commit is not the newest.
    const ancestors: { sha: string; behind: number }[] = [];
    for (const candidate of commits.filter((each) => !after.has(each)).slice(0, MAX_CANDIDATES)) {
      if (requests + 2 > SEARCH_MAX_REQUESTS) break;
      requests++;
      // An ancestor of `sha`, or a commit off its line (a force-push, a later one past the pages read).
      const behind = await github.aheadOf(candidate, sha);
      if (behind !== undefined && behind > 0) ancestors.push({ sha: candidate, behind });
    }
    for (const { sha: ancestor } of ancestors.sort((a, b) => a.behind - b.behind)) {
      if (requests >= SEARCH_MAX_REQUESTS) break;
      requests++;
      const record = await this.at(ancestor);
      if (record) return { sha: ancestor, record };
    }
    return undefined;
  }

  /** This target's record on a commit, as only a branch's own run, through the GitHub Actions app, wrote it. */
  async at(sha: string): Promise<ResultRecord | undefined> {
    const named = (await this.github.checkRunsOf(sha)).filter((run) => run.name === this.name);
    const ignored: string[] = [];
    let found: ResultRecord | undefined;
    for (const run of named) {
      const read = readRecord(run.output.text);
      if (run.app?.id !== this.appId) ignored.push('not written through the GitHub Actions app');
      else if (read.kind === 'invalid') ignored.push(`its record does not read: ${read.why}`);
      else if (read.kind === 'none') ignored.push('it holds no record');
      else if (read.record.of !== 'branch') ignored.push("a pull request's run wrote it");
      else if (read.record.name !== this.name) ignored.push(`its record names '${read.record.name}'`);
      else found ??= read.record;
    }
    if (ignored.length > 0) {
      info(
        line`Ignored ${ignored.length} check run(s) named '${this.name}' on ${short(sha)}: ${[...new Set(ignored)].join('; ')}.`,
      );
    }
    return found;
  }
}

/** A pull request's runs are listed under its head branch, whose name a base branch may share. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'];
