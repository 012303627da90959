import { runInProcess, runPostInProcess, virtualClock } from './helpers/in-process.js';
import { projectInputs } from './helpers/inputs.js';
import { annotations } from './helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  OTHER_APP,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
  type Scenario,
} from './simulator/github.js';
import { eventFile, pushToMainEnv, workflowRunEvent } from './simulator/github-events.js';
import { type SimTestCase, Simulator } from './simulator/simulator.js';

/**
 * The result on the commit and the gate against the base branch, as a team lives them: main's
 * pushes leave a check run per commit, and a pull request is compared with main at its merge base.
 *
 *   M1 - M2 - M3      main (M3 its head)
 *          \
 *           P1 - P2   the pull request's pushes
 */
const { owner, repo, number } = SAMPLE_PULL_REQUEST;
const sha = (prefix: string) => prefix.padEnd(40, '0');
const [M1, M2, M3, P1, P2, Q1] = ['a1', 'a2', 'a3', 'c1', 'c2', 'd1'].map(sha) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const NAME = 'Test run: project proj-1';

const GRAPH: Scenario = {
  commits: [
    { owner, repo, sha: M1, parents: [] },
    { owner, repo, sha: M2, parents: [M1] },
    { owner, repo, sha: M3, parents: [M2] },
    { owner, repo, sha: P1, parents: [M2] },
    { owner, repo, sha: P2, parents: [P1] },
    { owner, repo, sha: Q1, parents: [M3] },
  ],
  branches: [{ owner, repo, name: 'main', sha: M3 }],
  pulls: [{ owner, repo, number, headSha: P1, headRef: 'feature-7', baseRef: 'main' }],
};

let gh: GitHubSimulator;
beforeEach(async () => {
  gh = await GitHubSimulator.start(GRAPH);
});
afterEach(async () => {
  await gh?.stop();
});

const failed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'FAILED' }));
const passed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'PASSED' }));

const common = () => ({
  GITHUB_API_URL: gh.url,
  GITHUB_REPOSITORY: `${owner}/${repo}`,
  GITHUB_RUN_ID: '4242',
});
const pushEnv = (commit: string) => pushToMainEnv(gh.url, commit);
/** `baseSha`: what the payload says the base is, which may be stale. */
const pullRequestEnv = (headSha: string, baseSha = M3) => {
  gh.setScenario({
    ...GRAPH,
    pulls: [{ owner, repo, number, headSha, headRef: 'feature-7', baseRef: 'main' }],
  });
  return {
    ...common(),
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_SHA: sha('e'),
    GITHUB_EVENT_PATH: pullRequestEventFile({ ...SAMPLE_PULL_REQUEST, headSha, baseSha }),
  };
};

/** A finished project run of proj-1 with these test cases, on the event `env` describes. */
async function runWith(
  testCases: SimTestCase[],
  env: Record<string, string>,
  inputs: Record<string, string> = {},
) {
  const final = testCases.some((testCase) => testCase.status !== 'PASSED') ? 'FAILED' : 'PASSED';
  const sim = await Simulator.start({ project: { statuses: ['RUNNING', final], testCases } });
  try {
    const extra = { 'github-token': DEFAULT_TOKEN, 'fail-on': 'new', ...inputs };
    return await runInProcess(projectInputs(sim, extra), { clock: virtualClock(), env });
  } finally {
    await sim.stop();
  }
}

const checkRunsOn = (commit: string) => gh.checkRuns(owner, repo, commit);

describe('the check run on the commit tested', () => {
  test('on a pull request: created in progress when the run starts, completed with the outcome and its digest', async () => {
    const sim = await Simulator.start({
      project: { statuses: ['RUNNING', 'RUNNING', 'FAILED'], testCases: failed('X') },
    });
    // Seen while the run is still RUNNING: the second poll.
    const whileRunning = sim
      .waitForRequests('getProjectRun', 2)
      .then(() => checkRunsOn(P1).map((run) => run.status));
    const inputs = projectInputs(sim, {
      'github-token': DEFAULT_TOKEN,
      'dashboard-url': 'https://app.example.com/{projectId}/runs/{runId}',
    });
    const result = await runInProcess(inputs, { clock: virtualClock(), env: pullRequestEnv(P1) });
    await sim.stop();
    expect(await whileRunning).toEqual(['in_progress']);
    const [created] = gh.requests.filter((request) => request.operation === 'createCheckRun');
    expect(created?.body).toMatchObject({ name: NAME, head_sha: P1, status: 'in_progress' });
    expect(JSON.stringify(created?.body)).toContain('https://app.example.com/proj-1/runs/run-1');
    const [run] = checkRunsOn(P1);
    expect(run).toMatchObject({ name: NAME, status: 'completed', conclusion: 'failure' });
    expect(run?.output.title).toBe('❌ Test run failed: 1 test case: 0 passed, 1 failed, 0 flaky, 0 skipped');
    expect(run?.output.summary).toContain('<!-- test-run-action check -->');
    // its record: the pull request's own result, one column, never a baseline
    expect(run?.output.text).toMatch(
      /^<!-- test-run-action record v=1\nof=pull-request commit=c10{38} cut=0 qcut=0 name=Test%20run%3A%20project%20proj-1\nc c10{10} 0 1 0 1000\nr [0-9a-f]{12} F\n-->$/,
    );
    expect(result.outputs['check-run-url']).toBe(run?.html_url);
    // One create, one update: no write between them.
    expect(
      gh.requests.filter((request) => request.operation.endsWith('CheckRun')).map((r) => r.operation),
    ).toEqual(['createCheckRun', 'updateCheckRun']);
  });

  test('on workflow_run: on the pull request commit (workflow_run.head_sha), not on the default branch', async () => {
    const payload = workflowRunEvent({
      repository: `${owner}/${repo}`,
      headSha: P1,
      headBranch: 'feature-7',
      pullRequests: [number],
    });
    const env = {
      ...common(),
      GITHUB_EVENT_NAME: 'workflow_run',
      GITHUB_SHA: M3,
      GITHUB_EVENT_PATH: eventFile(payload),
    };
    const result = await runWith(passed('X'), env);
    expect(result.outputs.success).toBe('true');
    expect(checkRunsOn(M3)).toEqual([]);
    expect(checkRunsOn(P1)).toMatchObject([{ name: NAME, conclusion: 'success' }]);
    expect(checkRunsOn(P1)[0]?.output.text).toContain('of=pull-request');
  });

  test("on a push: on GITHUB_SHA, marked as the branch's own result", async () => {
    await runWith(failed('X'), pushEnv(M2));
    const [run] = checkRunsOn(M2);
    expect(run).toMatchObject({ name: NAME, conclusion: 'failure' });
    expect(run?.output.text).toContain('of=branch');
  });

  test('a re-run on the same commit updates its check run rather than adding another', async () => {
    await runWith(failed('X'), pushEnv(M2));
    await runWith(passed('X'), pushEnv(M2));
    expect(checkRunsOn(M2)).toMatchObject([{ name: NAME, conclusion: 'success' }]);
  });

  test('check-name names it; timed out and cancelled have their own conclusions', async () => {
    const sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const controller = new AbortController();
    void sim.waitForRequests('getProjectRun', 2).then(() => controller.abort());
    const inputs = projectInputs(sim, { 'github-token': DEFAULT_TOKEN, 'check-name': 'e2e / shop' });
    const result = await runInProcess(inputs, {
      clock: virtualClock(),
      env: pushEnv(M2),
      cancelSignal: controller.signal,
    });
    expect(result.outputs.status).toBe('CANCELLED');
    expect(checkRunsOn(M2)).toMatchObject([
      { name: 'e2e / shop', status: 'completed', conclusion: 'cancelled' },
    ]);
    const timedOut = await runInProcess(
      { ...inputs, timeout: '1s' },
      { clock: virtualClock(), env: pushEnv(M3) },
    );
    await sim.stop();
    expect(timedOut.outputs.status).toBe('TIMEDOUT');
    expect(checkRunsOn(M3)).toMatchObject([{ name: 'e2e / shop', conclusion: 'timed_out' }]);
  });

  test('a job cancelled while the base branch is read keeps the run it waited for, not an unexpected error', async () => {
    gh.setScenario({
      ...GRAPH,
      faults: [{ operation: 'getApp', requests: 'all', fault: { kind: 'hang' } }],
    });
    const sim = await Simulator.start({
      project: { statuses: ['RUNNING', 'PASSED'], testCases: passed('X') },
    });
    const controller = new AbortController();
    void gh.waitForRequests('getApp', 1).then(() => controller.abort());
    const inputs = projectInputs(sim, { 'github-token': DEFAULT_TOKEN, 'fail-on': 'new' });
    const result = await runInProcess(inputs, {
      clock: virtualClock(),
      env: pushEnv(M2),
      cancelSignal: controller.signal,
    });
    await sim.stop();
    expect(result.outputs.status).toBe('PASSED');
    expect(result.log).not.toContain('Unexpected error');
    expect(result.exitCode).toBe(0);
  });

  test('a target whose start was refused still gets a completed check run, so a required check never waits', async () => {
    const sim = await Simulator.start({
      faults: [{ operation: 'startProjectRun', requests: 'all', fault: { kind: 'status', status: 404 } }],
    });
    const result = await runInProcess(projectInputs(sim, { 'github-token': DEFAULT_TOKEN }), {
      clock: virtualClock(),
      env: pushEnv(M2),
    });
    await sim.stop();
    expect(result.outputs.status).toBe('ERROR');
    expect(checkRunsOn(M2)).toMatchObject([{ name: NAME, status: 'completed', conclusion: 'failure' }]);
    expect(checkRunsOn(M2)[0]?.output.summary).toContain('404');
  });

  test('the post step completes a check run that a killed main step left in progress', async () => {
    const created = gh.seedCheckRun({ owner, repo, headSha: M2, name: NAME, status: 'in_progress' });
    const result = await runPostInProcess(
      {
        'api-key': 'k',
        'base-url': 'http://127.0.0.1:9',
        'project-id': 'proj-1',
        'github-token': DEFAULT_TOKEN,
      },
      { isPost: 'true', 'checkRunId-0': String(created.id) },
      { clock: virtualClock(), env: pushEnv(M2) },
    );
    expect(result.log).toContain(
      `Completed the check run the main step left in progress (${created.id}) as cancelled.`,
    );
    expect(checkRunsOn(M2)).toMatchObject([{ id: created.id, status: 'completed', conclusion: 'cancelled' }]);
  });

  test.each([
    ['auto', 'a log line'],
    ['true', 'a warning'],
  ])('without checks: write, check-run %s costs %s and never the step', async (checkRun) => {
    gh.setScenario({ ...GRAPH, checks: 'read' });
    const result = await runWith(passed('X'), pushEnv(M2), { 'check-run': checkRun });
    expect(result.outputs).toMatchObject({ success: 'true', 'check-run-url': '' });
    const warnings = annotations(result.log, 'warning');
    const line =
      /Could not write check run 'Test run: project proj-1'\. .*HTTP 403.*'permissions: checks: write'/;
    if (checkRun === 'auto') {
      expect(warnings).toEqual([]);
      expect(result.log).toMatch(line);
    } else {
      expect(warnings).toEqual([expect.stringMatching(line)]);
    }
    // Refused once: not asked again at the end.
    expect(gh.count('createCheckRun')).toBe(1);
  });

  test('check-run false writes none, and still reads the base branch', async () => {
    await runWith(failed('X'), pushEnv(M2));
    const result = await runWith(failed('X'), pullRequestEnv(P1), { 'check-run': 'false' });
    expect(checkRunsOn(P1)).toEqual([]);
    expect(result.outputs.success).toBe('true');
  });
});

describe("fail-on 'new' against the base branch", () => {
  test("a failure main already has passes a pull request's first run, and the comment says what it compared with", async () => {
    await runWith(failed('X'), pushEnv(M2));
    const result = await runWith(failed('X'), pullRequestEnv(P1), { 'pr-comment': 'always' });
    expect(result.outputs).toMatchObject({ success: 'true', 'new-failures': '0', status: 'FAILED' });
    expect(result.log).toContain(
      'Compared with main at a200000 (the base branch): 0 new failures, 0 flaky on main, 1 failing on main, 0 fixed.',
    );
    expect(checkRunsOn(P1)).toMatchObject([{ conclusion: 'success' }]);
    expect(gh.comments(owner, repo, number)[0]?.body).toContain(
      'Compared with main at a200000 (the base branch).',
    );
  });

  test('a regression stays red on the second push, however often it is pushed', async () => {
    await runWith(failed('X'), pushEnv(M2));
    const first = await runWith(failed('X', 'Y'), pullRequestEnv(P1), { 'pr-comment': 'always' });
    expect(first.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
    const second = await runWith(failed('X', 'Y'), pullRequestEnv(P2), { 'pr-comment': 'always' });
    expect(second.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
    expect(annotations(second.log, 'error')[0]).toContain(
      "1 test case failed that did not fail in main at a200000 (the base branch) (2 failing in all; fail-on is 'new')",
    );
    expect(checkRunsOn(P2)).toMatchObject([{ conclusion: 'failure' }]);
  });

  test('a merge base without a result is passed over for its first parent', async () => {
    await runWith(failed('X'), pushEnv(M1));
    const result = await runWith(failed('X'), pullRequestEnv(P1));
    expect(result.outputs).toMatchObject({ success: 'true', 'new-failures': '0' });
    expect(result.log).toContain('Compared with main at a100000 (the base branch)');
  });

  test("a failure at the base branch's head is known too", async () => {
    await runWith(passed('X'), pushEnv(M2));
    await runWith(failed('X'), pushEnv(M3));
    const result = await runWith(failed('X'), pullRequestEnv(P1));
    expect(result.outputs).toMatchObject({ success: 'true', 'new-failures': '0' });
    expect(result.log).toContain(
      'Compared with main at a200000 and its newest result a300000 (the base branch)',
    );
  });

  test("another app's check run, or a pull request's, with the target's name is never a baseline", async () => {
    // What a real run of the branch writes (on Q1, off the pull request's history), copied onto M2
    // under another app, and as a pull request's own.
    await runWith(failed('X'), pushEnv(Q1));
    const [real] = checkRunsOn(Q1);
    const output = { title: 'forged', summary: real?.output.summary ?? '', text: real?.output.text ?? '' };
    expect(output.text).toContain('of=branch');
    gh.seedCheckRun({ owner, repo, headSha: M2, name: NAME, app: OTHER_APP, output });
    const ofPullRequest = { ...output, text: output.text.replace('of=branch', 'of=pull-request') };
    gh.seedCheckRun({ owner, repo, headSha: M2, name: NAME, output: ofPullRequest });
    const result = await runWith(failed('X'), pullRequestEnv(P1));
    expect(result.log).toContain(
      "Ignored 2 check run(s) named 'Test run: project proj-1' on a200000: a pull request's run wrote it; not written through the GitHub Actions app.",
    );
    expect(result.outputs.success).toBe('false');
    expect(result.log).toContain("fail-on is 'new', but there is nothing to compare with");
  });

  test("a stale base in the payload: the pull request's base branch read fresh and the merge base decide", async () => {
    await runWith(failed('X'), pushEnv(M1));
    await runWith(passed('X'), pushEnv(M2));
    // The payload says the base is M1, where X failed; the merge base with main is M2, where X passes.
    // (history: 0, round 5's rule: with main's history X would be flaky there, failed 1 of the last 2.)
    const result = await runWith(failed('X'), pullRequestEnv(P1, M1), { history: '0' });
    expect(result.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
    expect(result.log).toContain(
      'Compared with main at a200000 (the base branch): 1 new failure, 0 flaky on main, 0 failing on main, 0 fixed.',
    );
  });

  test("without a base result, never the pull request's previous run: every failure counts, and the log says so", async () => {
    const first = await runWith(failed('X'), pullRequestEnv(P1), { 'pr-comment': 'always' });
    expect(first.log).toContain("fail-on is 'new', but there is nothing to compare with");
    const second = await runWith(failed('X'), pullRequestEnv(P2), { 'pr-comment': 'always' });
    expect(second.log).toContain(
      "fail-on is 'new', but there is nothing to compare with (main has no result of 'Test run: project proj-1' at or before the merge base a200000): every failure counts. A push or scheduled run of the base branch records a result to compare with.",
    );
    expect(second.outputs).toMatchObject({ success: 'false', 'new-failures': '' });
  });

  test("a push compares with the branch's previous result: new on the commit that brought it, known on the next", async () => {
    await runWith(failed('X'), pushEnv(M1));
    const brought = await runWith(failed('X', 'Y'), pushEnv(M2));
    expect(brought.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
    expect(brought.log).toContain(
      "Compared with a100000 (this branch's previous result): 1 new failure, 0 flaky on main, 1 failing on main, 0 fixed.",
    );
    const next = await runWith(failed('X', 'Y'), pushEnv(M3));
    expect(next.outputs).toMatchObject({ success: 'true', 'new-failures': '0' });
  });

  test("a merge queue: the check run on merge_group.head_sha, compared with the base commit's result, no comment", async () => {
    await runWith(failed('X'), pushEnv(M3));
    const payload = {
      merge_group: { head_sha: Q1, base_sha: M3, head_ref: 'refs/heads/gh-readonly-queue/main/pr-7' },
    };
    const env = {
      ...common(),
      GITHUB_EVENT_NAME: 'merge_group',
      GITHUB_SHA: Q1,
      GITHUB_EVENT_PATH: eventFile(payload),
    };
    const result = await runWith(failed('X'), env, { 'pr-comment': 'always' });
    expect(result.outputs).toMatchObject({ success: 'true', 'new-failures': '0' });
    expect(checkRunsOn(Q1)).toMatchObject([{ name: NAME, conclusion: 'success' }]);
    expect(gh.count('createComment')).toBe(0);
  });
});
