import * as fs from 'node:fs';
import { runInProcess, virtualClock } from './helpers/in-process.js';
import { annotations } from './helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  type FaultRule,
  GitHubSimulator,
  type Operation,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
  type Scenario,
} from './simulator/github.js';
import { pushToMainEnv } from './simulator/github-events.js';
import { DEFAULT_API_KEY, type SimTestCase, Simulator } from './simulator/simulator.js';

/**
 * Within GitHub's limits: what GitHub answers alike for every target is asked once per step, its
 * rate limits are waited out (and a limited create is looked for before it is sent again), and
 * writes go one at a time.
 *
 *   M1 - M2 - M3      main (M3 its head)
 *          \
 *           P1        the pull request's head
 */
const { owner, repo, number } = SAMPLE_PULL_REQUEST;
const sha = (prefix: string) => prefix.padEnd(40, '0');
const [M1, M2, M3, P1] = ['a1', 'a2', 'a3', 'c1'].map(sha) as [string, string, string, string];
const GRAPH: Scenario = {
  commits: [
    { owner, repo, sha: M1, parents: [] },
    { owner, repo, sha: M2, parents: [M1] },
    { owner, repo, sha: M3, parents: [M2] },
    { owner, repo, sha: P1, parents: [M2] },
  ],
  branches: [{ owner, repo, name: 'main', sha: M3 }],
  pulls: [{ owner, repo, number, headSha: P1, headRef: 'feature-7', baseRef: 'main' }],
};
const WRITES: Operation[] = ['createCheckRun', 'updateCheckRun', 'createComment', 'updateComment'];
const READS: Operation[] = [
  'listWorkflowRuns',
  'getApp',
  'getPull',
  'compare',
  'getGitCommit',
  'listCheckRunsForRef',
  'listComments',
  'graphql',
];

let gh: GitHubSimulator;
let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
  await gh?.stop();
});

const failed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'FAILED' }));
const suiteIds = (count: number) => Array.from({ length: count }, (_, i) => `suite-${i + 1}`);

const common = () => ({
  GITHUB_API_URL: gh.url,
  GITHUB_REPOSITORY: `${owner}/${repo}`,
  GITHUB_RUN_ID: '4242',
  GITHUB_WORKFLOW_REF: `${owner}/${repo}/.github/workflows/e2e.yml@refs/heads/main`,
});
/** This workflow's runs of main, in the order they ran (GitHub lists them newest first). */
const mainRuns = (commits: string[]): Scenario['workflowRuns'] =>
  commits.map((headSha) => ({
    owner,
    repo,
    workflow: 'e2e.yml',
    headSha,
    headBranch: 'main',
    event: 'push',
  }));
const pullRequestEnv = () => ({
  ...common(),
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_SHA: sha('e'),
  GITHUB_EVENT_PATH: pullRequestEventFile({ ...SAMPLE_PULL_REQUEST, headSha: P1, baseSha: M3 }),
});
const pushEnv = (commit: string) => ({ ...pushToMainEnv(gh.url, commit), ...common() });

/** A step of `count` suites, each failing X, on the event `env` describes. */
async function step(count: number, env: Record<string, string>, inputs: Record<string, string> = {}) {
  const suites = Object.fromEntries(suiteIds(count).map((id) => [id, { testCases: failed('X') }]));
  sim = await Simulator.start({ suites });
  const clock = virtualClock();
  const result = await runInProcess(
    {
      'api-key': DEFAULT_API_KEY,
      'base-url': sim.url,
      'poll-interval': '20ms',
      'test-suite-id': suiteIds(count).join('\n'),
      'github-token': DEFAULT_TOKEN,
      'fail-on': 'new',
      'pr-comment': 'always',
      ...inputs,
    },
    { clock, env },
  );
  await sim.stop();
  return { result, clock };
}

/** The requests of one step by operation, reads and writes apart. */
function counted() {
  const counts = gh.requestCounts();
  const of = (operations: Operation[]) =>
    Object.fromEntries(operations.filter((op) => counts[op]).map((op) => [op, counts[op]]));
  const sum = (operations: Operation[]) => operations.reduce((total, op) => total + (counts[op] ?? 0), 0);
  return { reads: of(READS), writes: of(WRITES), readCount: sum(READS), writeCount: sum(WRITES) };
}

/** One pull request step of `count` targets after main's pushes left results on M1..M3, counted. */
async function pullRequestStep(count: number) {
  gh = await GitHubSimulator.start(GRAPH);
  for (const [i, commit] of [M1, M2, M3].entries()) {
    gh.setScenario({ ...GRAPH, workflowRuns: mainRuns([M1, M2, M3].slice(0, i)) });
    await step(count, pushEnv(commit));
  }
  gh.setScenario({ ...GRAPH, workflowRuns: mainRuns([M1, M2, M3]) });
  gh.resetCounts();
  await step(count, pullRequestEnv());
  return counted();
}

describe('once per step', () => {
  test('a pull request step asks GitHub the same reads for 1, 3 and 20 targets', async () => {
    const one = await pullRequestStep(1);
    await gh.stop();
    const three = await pullRequestStep(3);
    await gh.stop();
    const twenty = await pullRequestStep(20);
    expect(one.reads).toEqual({
      // this workflow's runs of main, whose commits are the candidates for the base result
      listWorkflowRuns: 1,
      getApp: 1,
      // the lookup of the base branch, and the head just before the comment is written
      getPull: 2,
      // the merge base; M2 (the merge base) and M3 (the base branch's newest) have runs and records of
      // their own, so no candidate is compared
      compare: 1,
      // the commit tested's (for its check runs), M2's (the nearest candidate) and M3's (the base branch's head)
      listCheckRunsForRef: 3,
      // the lookup, and the look for a second comment made at the same time after creating one
      listComments: 2,
    });
    expect(three.reads).toEqual(one.reads);
    expect(twenty.reads).toEqual(one.reads);
    // a check run created and completed per target, and the step's one comment
    expect(one.writes).toEqual({ createCheckRun: 1, updateCheckRun: 1, createComment: 1 });
    expect(twenty.writes).toEqual({ createCheckRun: 20, updateCheckRun: 20, createComment: 1 });
  });

  test("a push's look-back reads each commit once, from the Git database, for every target", async () => {
    gh = await GitHubSimulator.start(GRAPH);
    // M1 has a result; M2 and M3 were skipped: M3's run looks back through M2 to M1.
    await step(20, pushEnv(M1));
    gh.resetCounts();
    await step(20, pushEnv(M3));
    expect(counted().reads).toEqual({
      // no runs of main are listed here: the look-back
      listWorkflowRuns: 1,
      getApp: 1,
      // M3's parent, then M2's
      getGitCommit: 2,
      // M3's own (the check runs it writes), M2's and M1's
      listCheckRunsForRef: 3,
    });
    expect(gh.requestCounts().getCommit).toBeUndefined();
  });

  test("the step's request count is in the debug log", async () => {
    gh = await GitHubSimulator.start(GRAPH);
    const { result } = await step(1, pushEnv(M1));
    const total = Object.values(gh.requestCounts()).reduce((sum, count) => sum + count, 0);
    expect(result.log).toMatch(new RegExp(`::debug::GitHub requests of this step: ${total} \\(`));
  });

  test("a commit's check runs are listed in pages small enough for the answer cap", async () => {
    gh = await GitHubSimulator.start(GRAPH);
    await step(1, pushEnv(M1));
    const listing = gh.requests.find((request) => request.operation === 'listCheckRunsForRef');
    const perPage = Number(new URL(listing?.path ?? '', 'http://x').searchParams.get('per_page'));
    // 64 MiB over a check run whose summary and text (65,535 bytes each) JSON spells six times as long
    expect(perPage).toBeGreaterThan(0);
    expect(perPage * (2 * 65_535 * 6 + 65_536)).toBeLessThanOrEqual(64 * 2 ** 20);
  });
});

describe("GitHub's rate limits", () => {
  const limited = (operation: Operation, fault: FaultRule['fault']): FaultRule[] => [
    { operation, requests: [1], fault },
  ];

  test.each([
    ['with Retry-After: 2', { kind: 'rate-limit', limit: 'secondary', retryAfter: 2 } as const, 2000],
    ['with no header at all', { kind: 'rate-limit', limit: 'secondary' } as const, 60_000],
    ['answered 429', { kind: 'rate-limit', limit: 'secondary', status: 429, retryAfter: 2 } as const, 2000],
  ])('a secondary limit on a check run’s create (%s): waited out, written once', async (_, fault, waitMs) => {
    gh = await GitHubSimulator.start({ ...GRAPH, faults: limited('createCheckRun', fault) });
    const { result, clock } = await step(1, pushEnv(M1));
    expect(clock.slept).toContain(waitMs);
    expect(gh.checkRuns(owner, repo, M1)).toEqual([expect.objectContaining({ status: 'completed' })]);
    expect(gh.count('createCheckRun')).toBe(2);
    expect(result.log).toContain(
      `GitHub's rate limit: trying to create check run 'Test run: suite suite-1' again in ${waitMs === 2000 ? '2.0 s' : '1 min'}.`,
    );
    expect(result.log).not.toMatch(/checks: write/);
    expect(annotations(result.log, 'warning')).toEqual([]);
  });

  test('a limited create that GitHub carried out all the same is found after the wait, not sent again', async () => {
    const fault = { kind: 'rate-limit', limit: 'secondary', retryAfter: 2, afterEffect: true } as const;
    gh = await GitHubSimulator.start({ ...GRAPH, faults: limited('createCheckRun', fault) });
    await step(1, pushEnv(M1));
    expect(gh.count('createCheckRun')).toBe(1);
    expect(gh.checkRuns(owner, repo, M1)).toEqual([expect.objectContaining({ status: 'completed' })]);
  });

  test.each([
    ['with Retry-After: 2', { kind: 'rate-limit', limit: 'secondary', retryAfter: 2 } as const, false],
    ['with no header at all', { kind: 'rate-limit', limit: 'secondary' } as const, false],
    [
      'carried out all the same',
      { kind: 'rate-limit', limit: 'secondary', afterEffect: true } as const,
      true,
    ],
  ])('a secondary limit on the comment’s create (%s): one comment', async (_, fault, afterEffect) => {
    gh = await GitHubSimulator.start({ ...GRAPH, faults: limited('createComment', fault) });
    const { result } = await step(1, pullRequestEnv());
    expect(gh.comments(owner, repo, number)).toHaveLength(1);
    expect(gh.count('createComment')).toBe(afterEffect ? 1 : 2);
    expect(result.outputs['comment-url']).toBe(gh.comments(owner, repo, number)[0]?.html_url);
    expect(result.log).toMatch(/GitHub's rate limit: trying to comment on pull request #7 again in/);
    expect(result.log).not.toMatch(/pull-requests: write/);
  });

  test('a primary limit whose reset is past the bound: one line naming the limit and its reset, no retry storm', async () => {
    const clock = virtualClock(undefined, Date.parse('2030-01-01T12:00:00Z'));
    const reset = clock.now() / 1000 + 3600;
    const fault = { kind: 'rate-limit', limit: 'primary', reset } as const;
    gh = await GitHubSimulator.start({
      ...GRAPH,
      faults: [{ operation: 'createCheckRun', requests: 'all', fault }],
    });
    sim = await Simulator.start({ suites: { 'suite-1': { testCases: failed('X') } } });
    const result = await runInProcess(
      {
        'api-key': DEFAULT_API_KEY,
        'base-url': sim.url,
        'poll-interval': '20ms',
        'test-suite-id': 'suite-1',
        'github-token': DEFAULT_TOKEN,
        'check-run': 'true',
      },
      { clock, env: pushEnv(M1) },
    );
    // the completion is not sent either: the limit holds until its reset
    expect(gh.count('createCheckRun')).toBe(1);
    const lines = annotations(result.log, 'warning');
    expect(lines).toEqual([
      expect.stringMatching(
        /HTTP 403: API rate limit exceeded.*\(GitHub's rate limit for this token is used up; it lifts at 13:00:00 UTC\)\.$/,
      ),
    ]);
    expect(lines[0]).not.toMatch(/checks: write/);
  });

  test('a step whose time-out is short waits for a rate limit no longer than it', async () => {
    const fault = { kind: 'rate-limit', limit: 'secondary', retryAfter: 90 } as const;
    gh = await GitHubSimulator.start({ ...GRAPH, faults: limited('createCheckRun', fault) });
    const { result, clock } = await step(1, pushEnv(M1), { timeout: '1m', 'check-run': 'true' });
    expect(clock.slept).not.toContain(90_000);
    expect(annotations(result.log, 'warning')).toEqual([
      expect.stringMatching(
        /secondary rate limit.*\(GitHub's secondary rate limit applies; it lifts at \d\d:\d\d:\d\d UTC\)\.$/,
      ),
    ]);
    // nor is the completion sent while the limit holds
    expect(gh.count('createCheckRun')).toBe(1);
  });
});

describe('writes in series', () => {
  test('20 targets: no two writes at once, a second apart past the first few', async () => {
    gh = await GitHubSimulator.start(GRAPH);
    const { clock } = await step(20, pullRequestEnv());
    expect(gh.count('createCheckRun')).toBe(20);
    expect(gh.maxInFlight(WRITES)).toBe(1);
    // 41 writes, of which all but the first three wait for the second since the one before
    expect(clock.slept.filter((ms) => ms > 0 && ms <= 1000).length).toBeGreaterThanOrEqual(38);
  });
});

describe('README', () => {
  test('the request budget is the one measured here, for 1 and 20 targets', async () => {
    const one = await pullRequestStep(1);
    await gh.stop();
    const twenty = await pullRequestStep(20);
    const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const row = (name: string) => readme.split('\n').find((line) => line.startsWith(`| ${name} |`));
    expect(row('pull request, 1 target')).toBe(
      `| pull request, 1 target | ${one.readCount} | ${one.writeCount} |`,
    );
    expect(row('pull request, 20 targets')).toBe(
      `| pull request, 20 targets | ${twenty.readCount} | ${twenty.writeCount} |`,
    );
  });

  test("the push to main's row is the one measured here: a push after main's earlier runs", async () => {
    gh = await GitHubSimulator.start(GRAPH);
    for (const [i, commit] of [M1, M2].entries()) {
      gh.setScenario({ ...GRAPH, workflowRuns: mainRuns([M1, M2].slice(0, i)) });
      await step(1, pushEnv(commit));
    }
    gh.setScenario({ ...GRAPH, workflowRuns: mainRuns([M1, M2]) });
    gh.resetCounts();
    await step(1, pushEnv(M3));
    const push = counted();
    const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| push to `main`, 1 target |'));
    expect(row).toBe(`| push to \`main\`, 1 target | ${push.readCount} | ${push.writeCount} |`);
  });
});

describe('a required check never waits for ever', () => {
  test('an input error after the ids were read still completes each target’s check run, as a failure', async () => {
    gh = await GitHubSimulator.start(GRAPH);
    sim = await Simulator.start();
    const result = await runInProcess(
      {
        'api-key': DEFAULT_API_KEY,
        'base-url': sim.url,
        'test-suite-id': 'suite-1\nsuite-2',
        'github-token': DEFAULT_TOKEN,
        timeout: '-5m',
      },
      { clock: virtualClock(), env: pushEnv(M1) },
    );
    expect(annotations(result.log, 'error')[0]).toMatch(
      /^::error::Input 'timeout' must be a positive duration/,
    );
    expect(sim.requests).toEqual([]);
    const runs = gh.checkRuns(owner, repo, M1);
    expect(runs.map((run) => [run.name, run.status, run.conclusion])).toEqual([
      ['Test run: suite suite-2', 'completed', 'failure'],
      ['Test run: suite suite-1', 'completed', 'failure'],
    ]);
    expect(runs[0]?.output.summary).toContain("Input 'timeout' must be a positive duration");
  });

  test('an error in an input that names the check runs writes none: there is nothing to name them by', async () => {
    gh = await GitHubSimulator.start(GRAPH);
    sim = await Simulator.start();
    await runInProcess(
      {
        'api-key': DEFAULT_API_KEY,
        'base-url': sim.url,
        'test-suite-id': 'suite-1\nsuite-2',
        'github-token': DEFAULT_TOKEN,
        'check-name': 'only one',
      },
      { clock: virtualClock(), env: pushEnv(M1) },
    );
    expect(gh.checkRuns(owner, repo, M1)).toEqual([]);
  });
});
