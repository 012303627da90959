import { visibleLines } from './helpers/gfm.js';
import { runInProcess, virtualClock } from './helpers/in-process.js';
import { projectInputs, suiteInputs } from './helpers/inputs.js';
import { annotations } from './helpers/runner-files.js';
import { DEFAULT_TOKEN, GitHubSimulator, pullRequestEvent, type SimPull } from './simulator/github.js';
import { deploymentStatusEvent, eventFile, workflowRunEvent } from './simulator/github-events.js';
import { type SimTestCase, Simulator } from './simulator/simulator.js';

/** Where the comment goes on events other than pull_request: previews, workflow_run, an explicit number. */
const REPO = 'octo/shop';
const HEAD = 'feedface'.padEnd(40, '0');
const FORK_HEAD = 'f0f0f0f0'.padEnd(40, '1');
/** GITHUB_SHA on workflow_run: the default branch's head, never the commit tested. */
const DEFAULT_BRANCH_HEAD = 'defa017'.padEnd(40, '2');
const OURS: SimPull = { owner: 'octo', repo: 'shop', number: 7, headSha: HEAD, headRef: 'feature-7' };
const FORKS: SimPull = {
  owner: 'octo',
  repo: 'shop',
  number: 9,
  headSha: FORK_HEAD,
  headRef: 'patch-1',
  head: 'stranger/shop',
};

let gh: GitHubSimulator;
let sim: Simulator;
afterEach(async () => {
  await gh?.stop();
  await sim?.stop();
});

const failed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'FAILED' }));
const passed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'PASSED' }));

async function start(pulls: SimPull[], testCases: SimTestCase[] = failed('checkout')): Promise<void> {
  gh = await GitHubSimulator.start({ pulls });
  const anyFailed = testCases.some((testCase) => testCase.status !== 'PASSED');
  sim = await Simulator.start({
    project: { statuses: [anyFailed ? 'FAILED' : 'PASSED'], testCases },
    suite: { testCases },
  });
}

function env(eventName: string, payload: unknown): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: eventFile(payload),
    GITHUB_API_URL: gh.url,
    GITHUB_REPOSITORY: REPO,
    GITHUB_SHA: DEFAULT_BRANCH_HEAD,
    GITHUB_RUN_ID: '4242',
  };
}

const preview = (sha: string) => env('deployment_status', deploymentStatusEvent({ repository: REPO, sha }));
const inputs = (extra: Record<string, string> = {}) =>
  projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, ...extra });
const run = (environment: Record<string, string>, extra: Record<string, string> = {}) =>
  runInProcess(inputs(extra), { clock: virtualClock(), env: environment });
const commentsOn = (number: number) => gh.comments('octo', 'shop', number);

describe('deployment_status: a preview deployment', () => {
  test('of the head commit of a pull request: the comment goes there, naming that commit, and the note names both', async () => {
    await start([OURS]);
    const result = await runInProcess(
      suiteInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN }),
      {
        clock: virtualClock(),
        env: preview(HEAD),
      },
    );
    expect(result.outputs.status).toBe('FAILED');
    const [comment] = commentsOn(7);
    expect(comment?.body).toContain('Commit <code>feedfac</code>');
    expect(result.outputs['comment-url']).toBe(comment?.html_url);
    expect(gh.commentCalls().slice(0, 1)).toEqual(['commitPulls']);
    const started = sim.requests.find((request) => request.operation === 'startSuiteRun');
    expect((started?.body as { metadata?: { note?: string } } | undefined)?.metadata?.note).toBe(
      `GitHub Actions: ${REPO}@${HEAD.slice(0, 12)} (pull request #7) https://github.com/${REPO}/actions/runs/4242`,
    );
    expect(annotations(result.log, 'warning')).toEqual([]);
  });

  test("of a fork's pull request: GitHub's commit association answers [], the open pull requests are searched", async () => {
    await start([OURS, FORKS, { ...FORKS, number: 3, state: 'closed' }]);
    const result = await run(preview(FORK_HEAD));
    expect(gh.commentCalls().slice(0, 2)).toEqual(['commitPulls', 'listPulls']);
    expect(commentsOn(9)[0]?.body).toContain('Commit <code>f0f0f0f</code>');
    expect([commentsOn(7), commentsOn(3)]).toEqual([[], []]);
    expect(annotations(result.log, 'warning')).toEqual([]);
  });

  test("a fork's commit beyond the first page of open pull requests: found on a later page, never past the bound", async () => {
    const others = Array.from({ length: 150 }, (_, i): SimPull => ({ ...OURS, number: 1000 + i }));
    await start([...others, { ...FORKS, number: 2 }]);
    await run(preview(FORK_HEAD));
    expect(commentsOn(2)).toHaveLength(1);
    expect(gh.count('listPulls')).toBe(2);
  });

  test('two previews of two pushes with fail-on: new, main never tested: the first preview is no baseline, every failure counts', async () => {
    await start([OURS], failed('checkout'));
    const first = await run(preview(HEAD), { 'fail-on': 'new' });
    expect(first.outputs).toMatchObject({ success: 'false', 'new-failures': '' });
    const pushed = 'beef'.padEnd(40, '3');
    gh.setScenario({ pulls: [{ ...OURS, headSha: pushed }] });
    sim.setScenario({ project: { statuses: ['FAILED'], testCases: [...failed('checkout', 'search')] } });
    const second = await run(preview(pushed), { 'fail-on': 'new' });
    expect(second.outputs).toMatchObject({ success: 'false', 'new-failures': '', fixed: '' });
    expect(second.exitCode).toBe(1);
    expect(commentsOn(7)).toHaveLength(1);
    expect(visibleLines(commentsOn(7)[0]?.body ?? '')[0]).toBe('❌ Test run failed');
    expect(commentsOn(7)[0]?.body).toContain('Commit <code>beef333</code>');
  });

  test("a state other than 'success': one notice that the deployment may not be up, and the run goes on", async () => {
    await start([OURS], passed('checkout'));
    const pending = env(
      'deployment_status',
      deploymentStatusEvent({ repository: REPO, sha: HEAD, state: 'pending' }),
    );
    const result = await run(pending);
    expect(annotations(result.log, 'notice')).toEqual([
      "::notice::This deployment_status event reports the state 'pending', not 'success': the deployment may not be up, and tests of its URL may fail. Run the job on success only: if: github.event.deployment_status.state == 'success'.",
    ]);
    expect(result.outputs.status).toBe('PASSED');
    expect(commentsOn(7)).toHaveLength(1);
    const success = await run(preview(HEAD));
    expect(annotations(success.log, 'notice')).toEqual([]);
  });

  test('of a commit no open pull request has: one log line, nothing written, no warning', async () => {
    await start([OURS, { ...OURS, number: 5, headSha: 'abc'.padEnd(40, '4'), state: 'closed' }]);
    const result = await run(preview('abc'.padEnd(40, '4')), { 'fail-on': 'new' });
    expect(result.log).toContain(
      'No pull request comment: no open pull request has commit abc4444 at its head.',
    );
    expect(annotations(result.log, 'warning')).toEqual([]);
    expect([gh.count('createComment'), gh.count('updateComment'), gh.count('listComments')]).toEqual([
      0, 0, 0,
    ]);
    expect(result.log).toContain(
      "fail-on is 'new', but there is nothing to compare with (no open pull request has commit abc4444 at its head)",
    );
  });

  test('one commit at the head of two pull requests: each gets its comment, updated alike', async () => {
    await start([OURS, { ...OURS, number: 8, headRef: 'feature-8' }]);
    const first = await run(preview(HEAD));
    expect([commentsOn(7).length, commentsOn(8).length]).toEqual([1, 1]);
    expect(first.outputs['comment-url']).toBe(commentsOn(7)[0]?.html_url);
    // both are updated alike
    const pushed = 'beef'.padEnd(40, '3');
    gh.setScenario({ pulls: [7, 8].map((number) => ({ ...OURS, number, headSha: pushed })) });
    sim.setScenario({ project: { statuses: ['PASSED'], testCases: passed('checkout') } });
    const second = await run(preview(pushed));
    expect(second.outputs).toMatchObject({ success: 'true', fixed: '' });
    expect([commentsOn(7)[0]?.body, gh.count('updateComment')]).toEqual([commentsOn(8)[0]?.body, 2]);
  });

  test('the lookup fails: one warning, no comment, and the step result stays the run’s', async () => {
    gh = await GitHubSimulator.start({
      pulls: [OURS],
      faults: [{ operation: 'commitPulls', requests: 'all', fault: { kind: 'status', status: 403 } }],
    });
    sim = await Simulator.start({ project: { statuses: ['PASSED'], testCases: passed('checkout') } });
    const result = await run(preview(HEAD));
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', 'comment-url': '' });
    expect(result.exitCode).toBe(0);
    expect(annotations(result.log, 'warning')).toEqual([
      expect.stringMatching(
        /^::warning::Could not find the pull request of this run\. Could not list the pull requests of commit feedfac: HTTP 403.*'pull-requests: read'/,
      ),
    ]);
    expect(gh.count('createComment')).toBe(0);
  });
});

describe('workflow_run: a second workflow, with secrets, after the pull request’s own', () => {
  test('from the same repository: the payload’s pull request, and the commit named is head_sha, not GITHUB_SHA', async () => {
    await start([OURS]);
    const payload = workflowRunEvent({
      repository: REPO,
      headSha: HEAD,
      headBranch: 'feature-7',
      pullRequests: [7],
    });
    const result = await run(env('workflow_run', payload));
    expect(commentsOn(7)[0]?.body).toContain('Commit <code>feedfac</code>');
    expect(commentsOn(7)[0]?.body).not.toContain('defa017');
    // the payload said it all: no lookup
    expect(gh.commentCalls()).not.toEqual(expect.arrayContaining(['listPulls', 'commitPulls', 'getPull']));
    expect(annotations(result.log, 'warning')).toEqual([]);
  });

  test('from a fork, where GitHub leaves pull_requests empty: found by head owner:branch', async () => {
    await start([OURS, FORKS]);
    const payload = workflowRunEvent({
      repository: REPO,
      headSha: FORK_HEAD,
      headBranch: 'patch-1',
      headRepository: 'stranger/shop',
    });
    await run(env('workflow_run', payload));
    const list = gh.requests.find((request) => request.operation === 'listPulls');
    expect(new URL(list?.path ?? '', gh.url).searchParams.get('head')).toBe('stranger:patch-1');
    expect(commentsOn(9)[0]?.body).toContain('Commit <code>f0f0f0f</code>');
  });

  test('from a fork whose repository was deleted (head_repository: null): found among the open pull requests by head commit', async () => {
    const others = Array.from({ length: 120 }, (_, i): SimPull => ({ ...OURS, number: 1000 + i }));
    await start([...others, FORKS, { ...FORKS, number: 3, state: 'closed' }]);
    const payload = workflowRunEvent({
      repository: REPO,
      headSha: FORK_HEAD,
      headBranch: 'patch-1',
      headRepository: 'stranger/shop',
    });
    const result = await run(
      env('workflow_run', { ...payload, workflow_run: { ...payload.workflow_run, head_repository: null } }),
    );
    const lists = gh.requests.filter((request) => request.operation === 'listPulls');
    expect(lists.map((list) => new URL(list.path, gh.url).searchParams.get('head'))).toEqual([null, null]);
    expect(commentsOn(9)[0]?.body).toContain('Commit <code>f0f0f0f</code>');
    expect([commentsOn(3), commentsOn(1000)]).toEqual([[], []]);
    expect(annotations(result.log, 'warning')).toEqual([]);
  });

  test('from a fork whose branch has moved on since: the pull request’s head is not the commit tested, no comment', async () => {
    await start([{ ...FORKS, headSha: 'newer'.padEnd(40, '5') }]);
    const payload = workflowRunEvent({
      repository: REPO,
      headSha: FORK_HEAD,
      headBranch: 'patch-1',
      headRepository: 'stranger/shop',
    });
    const result = await run(env('workflow_run', payload));
    expect(result.log).toContain(
      'No pull request comment: no open pull request has commit f0f0f0f at its head.',
    );
    expect(gh.count('createComment')).toBe(0);
  });
});

describe("the 'pull-request' input", () => {
  test('on workflow_dispatch: the comment goes to that pull request, naming the commit tested, GITHUB_SHA', async () => {
    await start([OURS]);
    const dispatched = { ...env('workflow_dispatch', { inputs: {} }), GITHUB_SHA: HEAD };
    const result = await run(dispatched, { 'pull-request': '7' });
    // The lookup (whose answer also names the base branch), the comment's lookup, the head just before writing.
    expect(gh.commentCalls()).toEqual([
      'getPull',
      'listComments',
      'getPull',
      'createComment',
      'listComments',
    ]);
    expect(commentsOn(7)[0]?.body).toContain('Commit <code>feedfac</code>');
    expect(result.outputs['comment-url']).toBe(commentsOn(7)[0]?.html_url);
  });

  test("on workflow_dispatch of another commit than the pull request's head: nothing written, the log names both", async () => {
    await start([OURS]);
    const result = await runInProcess(
      suiteInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, 'pull-request': '7' }),
      { clock: virtualClock(), env: env('workflow_dispatch', { inputs: {} }) },
    );
    expect(result.log).toContain(
      "No pull request comment: this run tested defa017, but pull request #7's head is now feedfac (a newer push; its run writes the comment).",
    );
    expect(commentsOn(7)).toEqual([]);
    expect(annotations(result.log, 'warning')).toEqual([]);
    const started = sim.requests.find((request) => request.operation === 'startSuiteRun');
    expect((started?.body as { metadata?: { note?: string } } | undefined)?.metadata?.note).toBe(
      `GitHub Actions: ${REPO}@${DEFAULT_BRANCH_HEAD.slice(0, 12)} (pull request #7) https://github.com/${REPO}/actions/runs/4242`,
    );
  });

  test('a pull request that is closed: one log line, nothing written', async () => {
    await start([{ ...OURS, state: 'closed' }]);
    const result = await run(env('workflow_dispatch', {}), { 'pull-request': '7' });
    expect(result.log).toContain('No pull request comment: pull request #7 is closed.');
    expect(annotations(result.log, 'warning')).toEqual([]);
    expect(gh.count('createComment')).toBe(0);
  });

  test("an invalid number is an input error naming 'pull-request', before any request", async () => {
    await start([OURS]);
    const result = await run(env('workflow_dispatch', {}), { 'pull-request': '#7' });
    expect(annotations(result.log, 'error')).toEqual([
      "::error::Input 'pull-request' must be a pull request's number, such as 42; got '#7'.",
    ]);
    expect([sim.requests, gh.requests]).toEqual([[], []]);
  });

  test('without it, a push stays as today: one log line, no pull request looked up or commented on', async () => {
    await start([OURS]);
    const result = await run(env('push', { ref: 'refs/heads/main', after: HEAD }));
    expect(result.log).toContain(
      'No pull request comment: the workflow runs on push, not on a pull request.',
    );
    expect(gh.commentCalls()).toEqual([]);
  });
});

describe('a token that cannot write: the warning says why only where the cause can be', () => {
  async function readOnly(pulls: SimPull[]): Promise<void> {
    await start(pulls);
    gh.setScenario({ pulls, readOnly: true });
  }
  const forkPullRequest = () => {
    const payload = pullRequestEvent({ owner: 'octo', repo: 'shop', number: 9, headSha: FORK_HEAD });
    const head = {
      ...payload.pull_request.head,
      repo: { ...payload.pull_request.head.repo, full_name: 'stranger/shop' },
    };
    return { ...payload, pull_request: { ...payload.pull_request, head } };
  };
  const warningOf = async (environment: Record<string, string>) => {
    const result = await run(environment);
    expect(gh.count('createComment')).toBe(1);
    expect(result.exitCode).toBe(1); // the run's failure, not the comment's
    const warnings = annotations(result.log, 'warning');
    expect(warnings).toHaveLength(1);
    return warnings[0] ?? '';
  };

  test("pull_request from a fork: the permission, and the fork's read-only token that no permission can change", async () => {
    await readOnly([FORKS]);
    const warning = await warningOf(env('pull_request', forkPullRequest()));
    expect(warning).toBe(
      "::warning::Could not keep the pull request comment up to date. Could not comment on pull request #9: HTTP 403: Resource not accessible by integration. The github-token cannot write to the pull request: the workflow needs 'permissions: pull-requests: write'. This pull request comes from a fork, whose pull_request runs get a read-only token that no permission can change: comment from a workflow_run workflow instead.",
    );
  });

  test('pull_request from a branch of the repository: the permission only', async () => {
    await readOnly([OURS]);
    const warning = await warningOf(env('pull_request', pullRequestEvent({ ...OURS, headSha: HEAD })));
    expect(warning).toMatch(/HTTP 403.*'permissions: pull-requests: write'\.$/);
    expect(warning).not.toMatch(/fork|read-only/);
  });

  test("workflow_run of a fork's pull request: the permission only, a fork's token is no cause there", async () => {
    await readOnly([OURS, FORKS]);
    const payload = workflowRunEvent({
      repository: REPO,
      headSha: FORK_HEAD,
      headBranch: 'patch-1',
      headRepository: 'stranger/shop',
    });
    const warning = await warningOf(env('workflow_run', payload));
    expect(warning).toMatch(
      /Could not comment on pull request #9: HTTP 403.*'permissions: pull-requests: write'\.$/,
    );
    expect(warning).not.toMatch(/fork|read-only|pull_request /);
  });
});
