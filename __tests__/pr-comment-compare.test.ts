import { FOLD_LINES, renderedLinks, visibleLines } from './helpers/gfm.js';
import { runInProcess, virtualClock } from './helpers/in-process.js';
import { projectInputs, suiteInputs } from './helpers/inputs.js';
import { annotations } from './helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  MAX_BODY_LENGTH,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
  type Scenario,
} from './simulator/github.js';
import { pushToMainEnv } from './simulator/github-events.js';
import { type SimTestCase, Simulator } from './simulator/simulator.js';

/**
 * What a pull request's comment compares with, as a reviewer reads it: the base branch's result,
 * whatever the pull request's own earlier runs said.
 *
 *   M1 ---------- main, its push tested
 *     \
 *      P1 - P2 - P3   the pull request's pushes
 */
const PR = SAMPLE_PULL_REQUEST;
const commit = (digit: string) => digit.repeat(40);
const MAIN = commit('a');
const { owner, repo } = PR;
const GRAPH: Scenario = {
  commits: [
    { owner, repo, sha: MAIN, parents: [] },
    { owner, repo, sha: commit('1'), parents: [MAIN] },
    { owner, repo, sha: commit('2'), parents: [commit('1')] },
    { owner, repo, sha: commit('3'), parents: [commit('2')] },
  ],
  branches: [{ owner, repo, name: 'main', sha: MAIN }],
  pulls: [{ ...PR, headSha: commit('1'), baseRef: 'main' }],
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

async function runWith(
  testCases: SimTestCase[],
  env: Record<string, string>,
  inputs: Record<string, string>,
) {
  const anyFailed = testCases.some((testCase) => testCase.status !== 'PASSED');
  const sim = await Simulator.start({ project: { statuses: [anyFailed ? 'FAILED' : 'PASSED'], testCases } });
  try {
    const all = { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, ...inputs };
    return await runInProcess(projectInputs(sim, all), { clock: virtualClock(), env });
  } finally {
    await sim.stop();
  }
}

/** main's push, tested: the base branch's result. */
const runOnMain = (testCases: SimTestCase[]) =>
  runWith(testCases, { ...pushToMainEnv(gh.url, MAIN), GITHUB_RUN_ID: '4000' }, {});

/** A project run of proj-1 on the pull request at `headSha`, with these test cases; its comment. */
async function runOnPullRequest(
  testCases: SimTestCase[],
  headSha: string,
  inputs: Record<string, string> = {},
) {
  const result = await runWith(testCases, pullRequestEnv(headSha), inputs);
  const comments = gh.comments(PR.owner, PR.repo, PR.number);
  expect(comments).toHaveLength(1);
  return { ...result, body: comments[0]?.body ?? '' };
}

/** A push: the pull request's head is now `headSha` (only the head's run writes the comment). */
function pullRequestEnv(headSha: string) {
  gh.setScenario({ ...GRAPH, pulls: [{ ...PR, headSha, baseRef: 'main' }] });
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: pullRequestEventFile({ ...PR, headSha, baseSha: MAIN }),
    GITHUB_API_URL: gh.url,
    GITHUB_REPOSITORY: `${PR.owner}/${PR.repo}`,
    GITHUB_RUN_ID: '4242',
  };
}

/** The lines under a bold list heading of the rendered comment, up to the next heading. */
function listUnder(lines: string[], heading: string): string[] {
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && !/^(🆕|❌|⏱️|💥|⚠️|✅|❔)/u.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('what changed since the base branch', () => {
  test("three pushes of a pull request each compare with main's result, never with the pull request's own earlier push", async () => {
    await runOnMain([...failed('B'), ...passed('A', 'C')]);
    const first = await runOnPullRequest([...failed('A', 'B'), ...passed('C')], commit('1'));
    expect(first.outputs).toMatchObject({ 'new-failures': '1', fixed: '0', success: 'false' });
    const seen = visibleLines(first.body);
    expect(seen[0]).toBe('❌ Test run failed · 1 new failure, 0 flaky on main, 1 failing on main, 0 fixed');
    expect(seen).toContain('Compared with main at aaaaaaa (the base branch).');
    expect(listUnder(seen, '🆕 New failures')).toEqual(['🆕 ❌ FAILED · A · ✅❌']);
    expect(listUnder(seen, 'Failing on main')).toEqual([
      '❌ FAILED · B · failing on main since aaaaaaa, 1 result · ❌❌',
    ]);
    // the job summary says the same
    const summary = visibleLines(first.summary);
    expect(summary).toContain(
      'Compared with main at aaaaaaa (the base branch): 1 new failure, 0 flaky on main, 1 failing on main, 0 fixed',
    );
    expect(listUnder(summary, '🆕 New failures')).toEqual(['🆕 ❌ FAILED · A · ✅❌']);

    // A still fails on the next push: still new, main never failed it
    const second = await runOnPullRequest([...failed('A'), ...passed('B', 'C')], commit('2'));
    expect(second.outputs).toMatchObject({ 'new-failures': '1', fixed: '1', success: 'false' });
    expect(listUnder(visibleLines(second.body), 'Fixed')).toEqual(['✅ B']);

    const third = await runOnPullRequest(passed('A', 'B', 'C'), commit('3'));
    expect(third.outputs).toMatchObject({ 'new-failures': '0', fixed: '1', success: 'true' });
    expect(visibleLines(third.body)[0]).toBe(
      '✅ Test run passed · 0 new failures, 0 flaky on main, 0 failing on main, 1 fixed',
    );
  });

  test('the new failures are visible at a glance: in the heading and listed first, above the fold', async () => {
    const known = Array.from({ length: 25 }, (_, i) => `known failure ${i}`);
    await runOnMain(failed(...known));
    const { body } = await runOnPullRequest(
      [...failed(...known), ...failed('Checkout applies the discount')],
      commit('1'),
    );
    const seen = visibleLines(body);
    const fold = seen.slice(0, FOLD_LINES);
    expect(fold[0]).toBe('❌ Test run failed · 1 new failure, 0 flaky on main, 25 failing on main, 0 fixed');
    expect(fold).toContain('🆕 ❌ FAILED · Checkout applies the discount · ✅❌');
    expect(seen.indexOf('🆕 New failures')).toBeLessThan(seen.indexOf('Failing on main'));
    // the hidden lines stay hidden
    expect(seen.join('\n')).not.toMatch(/<!--|v=1|of=|commit=/);
  });

  test("a re-run of the pull request's commit compares with main again, not with its first attempt", async () => {
    await runOnMain(passed('A'));
    const attempt1 = await runOnPullRequest(failed('A'), commit('1'), { 'fail-on': 'new' });
    expect(attempt1.outputs).toMatchObject({ 'new-failures': '1', success: 'false' });
    const attempt2 = await runOnPullRequest(failed('A'), commit('1'), { 'fail-on': 'new' });
    expect(attempt2.outputs).toMatchObject({ 'new-failures': '1', success: 'false' });
    expect(gh.checkRuns(PR.owner, PR.repo, commit('1'))).toHaveLength(1);
  });

  test('10,000 failing test cases on main and on the pull request: the body within the limit, every failure known', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `failure number ${i} ${'x'.repeat(40)}`);
    await runOnMain(failed(...many));
    const second = await runOnPullRequest(
      [...failed(...many), ...failed('a brand new failure')],
      commit('1'),
      {
        'fail-on': 'new',
      },
    );
    expect(second.body.length).toBeLessThanOrEqual(MAX_BODY_LENGTH);
    const seen = visibleLines(second.body);
    expect(seen[0]).toMatch(
      /^❌ Test run failed · \d+ new failures?, 0 flaky on main, \d+ failing on main, 0 fixed$/,
    );
    // a failure past what main's record holds counts as new: the gate stays shut
    expect(second.outputs.success).toBe('false');
    expect(Number(second.outputs['new-failures'])).toBeGreaterThanOrEqual(1);
  });
});

describe("fail-on: 'new'", () => {
  test('known failures are reported but do not fail the step; the status stays the run’s', async () => {
    await runOnMain(failed('A', 'B'));
    const result = await runOnPullRequest([...failed('B'), ...passed('A')], commit('1'), {
      'fail-on': 'new',
    });
    expect(result.outputs).toMatchObject({
      status: 'FAILED',
      success: 'true',
      failed: '1',
      'new-failures': '0',
    });
    expect(result.exitCode).toBe(0);
    expect(result.log).toContain(
      "1 test case failed as in main at aaaaaaa (the base branch): with fail-on 'new', known failures do not fail the step.",
    );
    // still reported: its annotation and its place in the comment, under a heading without ❌
    expect(annotations(result.log, 'error').join('\n')).toContain('B');
    const seen = visibleLines(result.body);
    expect(seen[0]).toBe(
      '⚠️ Test run failed, no new failures · 0 new failures, 0 flaky on main, 1 failing on main, 1 fixed',
    );
    expect(listUnder(seen, 'Failing on main')).toEqual([
      '❌ FAILED · B · failing on main since aaaaaaa, 1 result · ❌❌',
    ]);
  });

  test('a new failure fails the step, saying so, with the link to the run', async () => {
    await runOnMain(failed('A'));
    const result = await runOnPullRequest(failed('A', 'C'), commit('1'), {
      'fail-on': 'new',
      'dashboard-url': 'https://app.example.com/{projectId}/runs/{runId}',
    });
    expect(result.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
    expect(annotations(result.log, 'error')).toContain(
      "::error::Project run run-1: 1 test case failed that did not fail in main at aaaaaaa (the base branch) (2 failing in all; fail-on is 'new'). The service's page for the run: https://app.example.com/proj-1/runs/run-1",
    );
  });

  test('with nothing to compare with, every failure counts and it says why and how to get a baseline', async () => {
    const first = await runOnPullRequest(failed('A'), commit('1'), { 'fail-on': 'new' });
    expect(first.outputs).toMatchObject({ success: 'false', 'new-failures': '' });
    expect(first.log).toContain(
      "fail-on is 'new', but there is nothing to compare with (main has no result of 'Test run: project proj-1' at or before the merge base aaaaaaa): every failure counts. A push or scheduled run of the base branch records a result to compare with.",
    );
    expect(visibleLines(first.body)).toContain(
      "Nothing to compare with: main has no result of 'Test run: project proj-1' at or before the merge base aaaaaaa.",
    );
    // the pull request's own earlier run is no baseline: the same failure on the next push still counts
    const second = await runOnPullRequest(failed('A'), commit('2'), { 'fail-on': 'new' });
    expect(second.outputs).toMatchObject({ success: 'false', 'new-failures': '' });
  });

  test('a run that did not finish fails the step even when every failure is known', async () => {
    await runOnMain(failed('A'));
    const sim = await Simulator.start({ project: { statuses: ['INTERRUPTED'], testCases: failed('A') } });
    try {
      const result = await runInProcess(
        projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, 'fail-on': 'new' }),
        { clock: virtualClock(), env: pullRequestEnv(commit('1')) },
      );
      expect(result.outputs).toMatchObject({ status: 'INTERRUPTED', success: 'false', 'new-failures': '0' });
    } finally {
      await sim.stop();
    }
  });

  test("an unknown value is an input error naming 'fail-on', before any request", async () => {
    const sim = await Simulator.start();
    try {
      const result = await runInProcess(projectInputs(sim, { 'fail-on': 'regressions' }));
      expect(annotations(result.log, 'error')).toEqual([
        "::error::Input 'fail-on' must be one of any, new; got 'regressions'.",
      ]);
      expect(sim.requests).toEqual([]);
    } finally {
      await sim.stop();
    }
  });
});

describe('links to the service’s pages in the comparison', () => {
  test('dashboard-test-url on a suite run links each listed test case, in the comment and the summary', async () => {
    const sim = await Simulator.start({
      suite: { testCases: [{ title: 'Login works', status: 'FAILED', testId: 't/1' }, ...passed('Search')] },
    });
    try {
      const result = await runInProcess(
        suiteInputs(sim, {
          'pr-comment': 'always',
          'github-token': DEFAULT_TOKEN,
          'dashboard-url': 'https://app.example.com/{projectId}/runs/{runId}',
          'dashboard-test-url': 'https://app.example.com/tests/{testRunId}/{testId}',
        }),
        { clock: virtualClock(), env: pullRequestEnv(commit('1')) },
      );
      const body = gh.comments(PR.owner, PR.repo, PR.number)[0]?.body ?? '';
      const testLink = {
        text: 'Login works',
        href: expect.stringMatching(/^https:\/\/app\.example\.com\/tests\/[^/]+\/t%2F1$/),
      };
      expect(renderedLinks(body)).toEqual(
        expect.arrayContaining([
          testLink,
          { text: 'suite-run-1', href: 'https://app.example.com/proj-1/runs/suite-run-1' },
        ]),
      );
      expect(renderedLinks(result.summary)).toEqual(expect.arrayContaining([testLink]));
    } finally {
      await sim.stop();
    }
  });
});
