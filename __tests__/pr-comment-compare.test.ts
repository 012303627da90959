import { digestLine, digestOf } from '../src/report/digest.js';
import { FOLD_LINES, renderedLinks, visibleLines } from './helpers/gfm.js';
import { runInProcess, virtualClock } from './helpers/in-process.js';
import { projectInputs, suiteInputs } from './helpers/inputs.js';
import { annotations } from './helpers/runner-files.js';
import { makeOutcome } from './report/helpers.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  MAX_BODY_LENGTH,
  OTHER_APP,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
  type SeedComment,
} from './simulator/github.js';
import { type SimTestCase, Simulator } from './simulator/simulator.js';

/** What changed since the last run, as a reviewer reads it on the pull request, across several runs. */
const PR = SAMPLE_PULL_REQUEST;
const commit = (digit: string) => digit.repeat(40);

let gh: GitHubSimulator;
beforeEach(async () => {
  gh = await GitHubSimulator.start();
});
afterEach(async () => {
  await gh?.stop();
});

const failed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'FAILED' }));
const passed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'PASSED' }));

/** A project run of proj-1 on the pull request at `headSha`, with these test cases; its comment. */
async function runOnPullRequest(
  testCases: SimTestCase[],
  headSha: string,
  inputs: Record<string, string> = {},
) {
  const anyFailed = testCases.some((testCase) => testCase.status !== 'PASSED');
  const sim = await Simulator.start({ project: { statuses: [anyFailed ? 'FAILED' : 'PASSED'], testCases } });
  try {
    const result = await runInProcess(
      projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, ...inputs }),
      { clock: virtualClock(), env: pullRequestEnv(headSha) },
    );
    const comments = gh.comments(PR.owner, PR.repo, PR.number);
    expect(comments).toHaveLength(1);
    return { ...result, body: comments[0]?.body ?? '' };
  } finally {
    await sim.stop();
  }
}

/** A push: the pull request's head is now `headSha` (only the head's run writes the comment). */
function pullRequestEnv(headSha: string) {
  gh.setScenario({ pulls: [{ ...PR, headSha }] });
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: pullRequestEventFile({ ...PR, headSha }),
    GITHUB_API_URL: gh.url,
    GITHUB_REPOSITORY: `${PR.owner}/${PR.repo}`,
  };
}

/** The lines under a bold list heading of the rendered comment, up to the next heading. */
function listUnder(lines: string[], heading: string): string[] {
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && !/^(🆕|❌|⏱️|💥|⚠️|✅|❔)/u.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

describe('what changed since the previous run', () => {
  test('three runs on one pull request: A and B fail; then B and C; then nothing', async () => {
    const first = await runOnPullRequest([...failed('A', 'B'), ...passed('C')], commit('1'));
    expect(first.outputs).toMatchObject({ 'new-failures': '', fixed: '', success: 'false' });
    expect(visibleLines(first.body)[0]).toBe('❌ Test run failed');

    const second = await runOnPullRequest([...failed('B', 'C'), ...passed('A')], commit('2'));
    expect(second.outputs).toMatchObject({ 'new-failures': '1', fixed: '1', success: 'false' });
    const seen = visibleLines(second.body);
    expect(seen[0]).toBe('❌ Test run failed · 1 new failure, 1 fixed');
    expect(listUnder(seen, '🆕 New failures')).toEqual(['🆕 ❌ FAILED · C']);
    expect(listUnder(seen, 'Still failing')).toEqual(['❌ FAILED · B']);
    expect(listUnder(seen, 'Fixed')).toEqual(['✅ A']);
    expect(second.log).toContain('Compared with the previous run of this target: 1 new failure, 1 fixed.');
    // the job summary says the same
    const summary = visibleLines(second.summary);
    expect(summary).toContain(
      'Compared with the previous run of this target: 1 new failure, 1 fixed, 1 still failing',
    );
    expect(listUnder(summary, '🆕 New failures')).toEqual(['🆕 ❌ FAILED · C']);
    expect(listUnder(summary, 'Still failing')).toEqual(['❌ FAILED · B']);
    expect(listUnder(summary, 'Fixed')).toEqual(['✅ A']);

    const third = await runOnPullRequest(passed('A', 'B', 'C'), commit('3'));
    expect(third.outputs).toMatchObject({ 'new-failures': '0', fixed: '2', success: 'true' });
    const seenThen = visibleLines(third.body);
    expect(seenThen[0]).toBe('✅ Test run passed · 0 new failures, 2 fixed');
    expect(listUnder(seenThen, 'Fixed')).toEqual(['✅ B', '✅ C']);
    expect(listUnder(seenThen, '🆕 New failures')).toEqual([]);
  });

  test('the new failures are visible at a glance: in the heading and listed first, above the fold', async () => {
    const known = Array.from({ length: 25 }, (_, i) => `known failure ${i}`);
    await runOnPullRequest(failed(...known), commit('1'));
    const { body } = await runOnPullRequest(
      [...failed(...known), ...failed('Checkout applies the discount')],
      commit('2'),
    );
    const seen = visibleLines(body);
    const fold = seen.slice(0, FOLD_LINES);
    expect(fold[0]).toBe('❌ Test run failed · 1 new failure, 0 fixed');
    expect(fold).toContain('🆕 ❌ FAILED · Checkout applies the discount');
    expect(seen.indexOf('🆕 New failures')).toBeLessThan(seen.indexOf('Still failing'));
    // the hidden digests are hidden
    expect(seen.join('\n')).not.toMatch(/digest|baseline|failing=/);
  });

  test("a re-run of the same commit compares with that commit's result as it was before the re-run", async () => {
    await runOnPullRequest(failed('A'), commit('1'));
    const attempt1 = await runOnPullRequest(failed('A', 'C'), commit('2'), { 'fail-on': 'new' });
    expect(attempt1.outputs).toMatchObject({ 'new-failures': '1', success: 'false' });
    // the commit's one check run holds the first attempt's result, read before the re-run rewrote it
    const attempt2 = await runOnPullRequest([...failed('A', 'D'), ...passed('C')], commit('2'), {
      'fail-on': 'new',
    });
    expect(attempt2.outputs).toMatchObject({ 'new-failures': '1', fixed: '1', success: 'false' });
    expect(attempt2.log).toContain(
      'Compared with the previous run of this commit (this is a re-run): 1 new failure, 1 fixed.',
    );
    expect(gh.checkRuns(PR.owner, PR.repo, commit('2'))).toHaveLength(1);
    // the next push compares with this commit's latest run: D is known by then
    const next = await runOnPullRequest(failed('A', 'D'), commit('3'), { 'fail-on': 'new' });
    expect(next.outputs).toMatchObject({ 'new-failures': '0', success: 'true' });
  });

  test("an earlier comment naming no commit, a commit without a result, or another app's result: nothing to compare with", async () => {
    const marker = '<!-- test-run-action mode=project project=proj-1 -->';
    const named = `${marker}\n### ❌ Test run failed\n<!-- test-run-action commit=${commit('1')} -->`;
    const cases: [SeedComment, boolean, string][] = [
      [
        { body: `${marker}\n### ❌ Test run failed\nwritten before the commit line` },
        false,
        'the earlier comment names no commit it reported',
      ],
      [
        { body: named },
        false,
        "the commit it last reported, 1111111, has no result of 'Test run: project proj-1'",
      ],
      [
        { body: named },
        true,
        "the commit it last reported, 1111111, has no result of 'Test run: project proj-1'",
      ],
    ];
    for (const [seed, forged, why] of cases) {
      await gh.stop();
      gh = await GitHubSimulator.start();
      gh.seedComments(PR.owner, PR.repo, PR.number, [seed]);
      if (forged) {
        // A digest that knows A fails, in a check run of the right name written by another app.
        const summary = `<!-- test-run-action check mode=project project=proj-1 of=pull-request -->\n${digestLine(digestOf(makeOutcome([{ title: 'A', status: 'FAILED' }]).testCases, commit('1')))}`;
        gh.seedCheckRun({
          owner: PR.owner,
          repo: PR.repo,
          headSha: commit('1'),
          name: 'Test run: project proj-1',
          app: OTHER_APP,
          output: { title: 'x', summary },
        });
      }
      const result = await runOnPullRequest(failed('A'), commit('2'), { 'fail-on': 'new' });
      expect([seed.body, result.outputs['new-failures'], result.outputs.success]).toEqual([
        seed.body,
        '',
        'false',
      ]);
      expect(result.body).toContain('1 of 1 test case failed');
      expect(result.log).toContain(
        `fail-on is 'new', but there is nothing to compare with (${why}): any failure fails the step.`,
      );
      expect(annotations(result.log, 'warning')).toEqual([]);
    }
  });

  test('20,000 failing test cases in the earlier run: a partial comparison, and the body within the limit', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `failure number ${i} ${'x'.repeat(40)}`);
    await runOnPullRequest(failed(...many), commit('1'));
    const second = await runOnPullRequest(
      [...failed(...many), ...failed('a brand new failure')],
      commit('2'),
      {
        'fail-on': 'new',
      },
    );
    expect(second.body.length).toBeLessThanOrEqual(MAX_BODY_LENGTH);
    const seen = visibleLines(second.body);
    expect(seen[0]).toMatch(/^❌ Test run failed · [01] new failures?, 0 fixed \(compared in part\)$/);
    expect(seen.join('\n')).toContain(
      'Compared in part: the previous result had more failing test cases than its digest holds',
    );
    // some failures cannot be known from a digest that holds 1,590 titles: the gate stays shut
    expect(second.outputs.success).toBe('false');
    expect(Number(second.outputs['new-failures'])).toBeLessThanOrEqual(1);
  });
});

describe("fail-on: 'new'", () => {
  test('known failures are reported but do not fail the step; the status stays the run’s', async () => {
    await runOnPullRequest(failed('A', 'B'), commit('1'));
    const result = await runOnPullRequest([...failed('B'), ...passed('A')], commit('2'), {
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
      "1 test case failed as in the previous run of this target: with fail-on 'new', known failures do not fail the step.",
    );
    // still reported: its annotation and its place in the comment
    expect(annotations(result.log, 'error').join('\n')).toContain('B');
    expect(listUnder(visibleLines(result.body), 'Still failing')).toEqual(['❌ FAILED · B']);
  });

  test('a new failure fails the step, saying so, with the link to the run', async () => {
    await runOnPullRequest(failed('A'), commit('1'));
    const result = await runOnPullRequest(failed('A', 'C'), commit('2'), {
      'fail-on': 'new',
      'dashboard-url': 'https://app.example.com/{projectId}/runs/{runId}',
    });
    expect(result.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
    expect(annotations(result.log, 'error')).toContain(
      "::error::Project run run-1: 1 test case failed that did not fail in the previous run of this target (2 failing in all; fail-on is 'new'). The service's page for the run: https://app.example.com/proj-1/runs/run-1",
    );
  });

  test('with nothing to compare with, it falls back to any and says why', async () => {
    const result = await runOnPullRequest(failed('A'), commit('1'), { 'fail-on': 'new' });
    expect(result.outputs.success).toBe('false');
    expect(result.log).toContain(
      "fail-on is 'new', but there is nothing to compare with (this is the first run of this target on the pull request): any failure fails the step.",
    );
  });

  test('a run that did not finish fails the step even when every failure is known', async () => {
    await runOnPullRequest(failed('A'), commit('1'));
    const sim = await Simulator.start({ project: { statuses: ['INTERRUPTED'], testCases: failed('A') } });
    try {
      const result = await runInProcess(
        projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, 'fail-on': 'new' }),
        { clock: virtualClock(), env: pullRequestEnv(commit('2')) },
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
