import { runInProcess, runTogether, virtualClock } from './helpers/in-process.js';
import { projectInputs } from './helpers/inputs.js';
import { annotations } from './helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  type FaultRule,
  GitHubSimulator,
  HUMAN_USER,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from './simulator/github.js';
import { deploymentStatusEvent, eventFile } from './simulator/github-events.js';
import { type SimTestCase, Simulator } from './simulator/simulator.js';

/** Runs of one pull request overlap: only the run of the pull request's head writes its comment. */
const PR = SAMPLE_PULL_REQUEST;
const REPO = `${PR.owner}/${PR.repo}`;
const OLDER = '1111111'.padEnd(40, 'a');
const NEWER = '2222222'.padEnd(40, 'b');

let gh: GitHubSimulator;
let sim: Simulator;
afterEach(async () => {
  await gh?.stop();
  await sim?.stop();
});

const failed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'FAILED' }));

/** The pull request's head is `head`. */
async function start(head: string, faults: FaultRule[] = []): Promise<void> {
  gh = await GitHubSimulator.start({ pulls: [{ ...PR, headSha: head }], faults });
  sim = await Simulator.start({ project: { statuses: ['FAILED'], testCases: failed('checkout') } });
}

/** What the runner gives a pull_request run of the commit `tested` (a re-run keeps its old payload). */
const pullRequestRun = (tested: string) => ({
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_EVENT_PATH: pullRequestEventFile({ ...PR, headSha: tested }),
  GITHUB_API_URL: gh.url,
  GITHUB_REPOSITORY: REPO,
});

const run = (env: Record<string, string>, extra: Record<string, string> = {}) =>
  runInProcess(projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, ...extra }), {
    clock: virtualClock(),
    env,
  });
const comments = () => gh.comments(PR.owner, PR.repo, PR.number);
const staleLine =
  "No pull request comment: this run tested 1111111, but pull request #7's head is now 2222222 (a newer push; its run writes the comment).";

describe('only the run of the head writes the comment', () => {
  test("a re-run of an older commit ends last: the newer head's comment stays as it is, one log line names both commits", async () => {
    await start(NEWER);
    await run(pullRequestRun(NEWER));
    const newer = comments();
    expect(newer[0]?.body).toContain('Commit <code>2222222</code>');

    sim.setScenario({ project: { statuses: ['FAILED'], testCases: failed('checkout', 'search') } });
    const rerun = await run(pullRequestRun(OLDER), { 'fail-on': 'new' });
    expect(comments()).toEqual(newer);
    expect(rerun.log).toContain(staleLine);
    expect(rerun.outputs['comment-url']).toBe('');
    expect(annotations(rerun.log, 'warning')).toEqual([]);
    expect([gh.count('createComment'), gh.count('updateComment')]).toEqual([1, 0]);
  });

  test('the first run of an older commit creates nothing either, and the pull request is read just before writing', async () => {
    await start(NEWER);
    const older = await run(pullRequestRun(OLDER));
    expect(older.log).toContain(staleLine);
    expect(comments()).toEqual([]);
    // The comment's lookup, the base branch (read fresh), then the head just before writing.
    expect(gh.commentCalls()).toEqual(['listComments', 'getPull', 'getPull']);
  });

  test('on deployment_status too: the head moves on while the run runs, found at the lookup, not at the write', async () => {
    await start(OLDER);
    const push = () => gh.setScenario({ pulls: [{ ...PR, headSha: NEWER }] });
    void sim.waitForRequests('getProjectRun').then(push);
    const result = await run({
      GITHUB_EVENT_NAME: 'deployment_status',
      GITHUB_EVENT_PATH: eventFile(deploymentStatusEvent({ repository: REPO, sha: OLDER })),
      GITHUB_API_URL: gh.url,
      GITHUB_REPOSITORY: REPO,
    });
    expect(gh.commentCalls()).toEqual(['commitPulls', 'listComments', 'getPull', 'getPull']);
    expect(result.log).toContain(staleLine);
    expect(comments()).toEqual([]);
  });

  test('the pull request cannot be read: one warning, nothing written, and the step result stays the run’s', async () => {
    await start(NEWER, [{ operation: 'getPull', requests: 'all', fault: { kind: 'status', status: 404 } }]);
    const result = await run(pullRequestRun(NEWER));
    expect(result.outputs).toMatchObject({ status: 'FAILED', 'comment-url': '' });
    expect(annotations(result.log, 'warning')).toEqual([
      expect.stringMatching(
        /^::warning::Could not keep the pull request comment up to date\. Could not read pull request #7: HTTP 404.*'permissions: pull-requests: write'/,
      ),
    ]);
    expect(comments()).toEqual([]);
  });
});

describe('two runs of one target at once leave one comment', () => {
  const MARKER = '<!-- test-run-action mode=project project=proj-1 -->';
  const inputs = () => projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN });

  test('started at once, whatever the interleaving: one comment, and both runs name it', async () => {
    await start(NEWER);
    const result = await runTogether([inputs(), inputs()], { env: pullRequestRun(NEWER) });
    expect(comments()).toHaveLength(1);
    expect(comments()[0]?.body).toContain(MARKER);
    expect(result.outputs['comment-url']).toBe(comments()[0]?.html_url);
    expect(gh.count('createComment') + gh.count('updateComment')).toBeGreaterThanOrEqual(2);
    expect(annotations(result.log, 'warning')).toEqual([]);
  });

  test("both list before either create lands: both create, the earliest is kept with a run's body, the other deleted; other comments untouched", async () => {
    // each create lands 200 ms after it arrives: both runs have listed by then, and found nothing
    const late = { kind: 'delay', ms: 200 } as const;
    await start(NEWER, [{ operation: 'createComment', requests: [1, 2], fault: late }]);
    const others = gh.seedComments(PR.owner, PR.repo, PR.number, [
      { body: `${MARKER}\npasted by a person`, user: HUMAN_USER },
      { body: '<!-- test-run-action mode=project project=proj-2 -->\nanother target' },
    ]);
    const result = await runTogether([inputs(), inputs()], { env: pullRequestRun(NEWER) });

    // two creates: neither run found a comment
    expect(gh.count('createComment')).toBe(2);
    const mine = comments().filter((comment) => comment.body?.startsWith(`${MARKER}\n### `));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.body).toContain('Commit <code>2222222</code>');
    const deleted = gh.requests.filter((request) => request.operation === 'deleteComment');
    const deletedIds = new Set(deleted.map((request) => Number(request.path.split('/').at(-1))));
    expect(deletedIds.size).toBe(1);
    expect([...deletedIds][0]).toBeGreaterThan(mine[0]?.id ?? Infinity);
    expect(result.outputs['comment-url']).toBe(mine[0]?.html_url);
    expect(comments()).toHaveLength(3);
    expect(comments().slice(0, 2)).toEqual(others);
    expect(result.log).toContain('at the same time: kept the earliest comment');
    expect(annotations(result.log, 'warning')).toEqual([]);
  });
});
