import { readFileSync } from 'node:fs';
import { visibleLines } from './helpers/gfm.js';
import { runInProcess, virtualClock } from './helpers/in-process.js';
import { projectInputs } from './helpers/inputs.js';
import { annotations } from './helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
  type Scenario,
} from './simulator/github.js';
import { pushToMainEnv } from './simulator/github-events.js';
import { type SimTestCase, Simulator } from './simulator/simulator.js';

/**
 * A flake is not a regression: main's own runs build the history in their check runs, and a pull
 * request's failures are labelled against it.
 *
 *   M1 - M2 - M3 - M4 - M5     main, each push tested
 *                        \
 *                         P1   the pull request
 */
const { owner, repo, number } = SAMPLE_PULL_REQUEST;
const sha = (prefix: string) => prefix.padEnd(40, '0');
const MAIN = ['a1', 'a2', 'a3', 'a4', 'a5'].map(sha);
const P1 = sha('c1');
const GRAPH: Scenario = {
  commits: [
    ...MAIN.map((commit, i) => ({
      owner,
      repo,
      sha: commit,
      parents: i === 0 ? [] : [MAIN[i - 1] as string],
    })),
    { owner, repo, sha: P1, parents: [MAIN[4] as string] },
  ],
  branches: [{ owner, repo, name: 'main', sha: MAIN[4] as string }],
  pulls: [{ owner, repo, number, headSha: P1, headRef: 'feature-7', baseRef: 'main' }],
};

let gh: GitHubSimulator;
beforeEach(async () => {
  gh = await GitHubSimulator.start(GRAPH);
});
afterEach(async () => {
  await gh?.stop();
});

const cases = (failing: string[], passing: string[] = []): SimTestCase[] => [
  ...failing.map((title) => ({ title, status: 'FAILED' })),
  ...passing.map((title) => ({ title, status: 'PASSED' })),
];
const common = () => ({
  GITHUB_API_URL: gh.url,
  GITHUB_REPOSITORY: `${owner}/${repo}`,
  GITHUB_RUN_ID: '4242',
});
const pushEnv = (commit: string) => pushToMainEnv(gh.url, commit);
const pullRequestEnv = () => ({
  ...common(),
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_SHA: sha('e'),
  GITHUB_EVENT_PATH: pullRequestEventFile({
    ...SAMPLE_PULL_REQUEST,
    headSha: P1,
    baseSha: MAIN[4] as string,
  }),
});

/** The day the step runs on (UTC), for the quarantine's dates. */
const ON = (day: string) => virtualClock(() => 0.5, Date.parse(`${day}T12:00:00Z`));

async function runWith(
  testCases: SimTestCase[],
  env: Record<string, string>,
  inputs: Record<string, string> = {},
  clock = virtualClock(),
) {
  const final = testCases.some((testCase) => testCase.status !== 'PASSED') ? 'FAILED' : 'PASSED';
  const sim = await Simulator.start({ project: { statuses: [final], testCases } });
  try {
    const extra = { 'github-token': DEFAULT_TOKEN, 'fail-on': 'new', 'pr-comment': 'always', ...inputs };
    return await runInProcess(projectInputs(sim, extra), { clock, env });
  } finally {
    await sim.stop();
  }
}

/** Main's pushes, one result each: `failing[i]` failed on the i-th push, the rest of `titles` passed. */
async function mainPushes(titles: string[], failing: string[][], inputs: Record<string, string> = {}) {
  for (const [i, failed] of failing.entries()) {
    const passed = titles.filter((title) => !failed.includes(title));
    await runWith(cases(failed, passed), pushEnv(MAIN[i] as string), inputs);
  }
}

const checkRunOf = (commit: string) => gh.checkRuns(owner, repo, commit)[0];

describe('the history travels with main’s own results', () => {
  test('X flaked once on main (pass, fail, pass, pass): its failure on the pull request is flaky, not new; Y beside it is new', async () => {
    await mainPushes(['X', 'Y'], [[], ['X'], [], []]);
    expect(checkRunOf(MAIN[3] as string)?.output.text).toMatch(
      /^<!-- test-run-action record v=1\nof=branch commit=a40{38} cut=0 qcut=0 name=\S+\nc a10{10} 2 0 0 1000\nc a20{10} 1 1 0 1000\nc a30{10} 2 0 0 1000\nc a40{10} 2 0 0 1000\nr [0-9a-f]{12} \.F\.\.\n-->$/,
    );

    const both = await runWith(cases(['X', 'Y']), pullRequestEnv());
    expect(both.outputs).toMatchObject({ success: 'false', 'new-failures': '1', 'flaky-failures': '1' });
    expect(both.log).toContain(
      'Compared with main at a400000 (the base branch): 1 new failure, 1 flaky on main, 0 failing on main, 0 fixed.',
    );
    const comment = gh.comments(owner, repo, number)[0]?.body ?? '';
    const seen = visibleLines(comment);
    expect(seen[0]).toBe('❌ Test run failed · 1 new failure, 1 flaky on main, 0 failing on main, 0 fixed');
    expect(seen).toContain('🆕 ❌ FAILED · Y · ✅✅✅✅❌');
    expect(seen).toContain('❌ FAILED · X · flaky on main: failed 1 of the last 4 · ✅❌✅✅❌');
    // the check run and the summary show the same labels
    expect(checkRunOf(P1)?.output.summary).toContain('flaky on main: failed 1 of the last 4');
    expect(both.summary).toContain('flaky on main: failed 1 of the last 4');
    // and the results file records them
    const results = JSON.parse(readFileSync(both.outputs['results-file'] ?? '', 'utf8'));
    expect(results.runs[0].testCases).toEqual([
      expect.objectContaining({ title: 'X', label: 'flaky', record: '✅❌✅✅❌' }),
      expect.objectContaining({ title: 'Y', label: 'new', record: '✅✅✅✅❌' }),
    ]);

    const flakeOnly = await runWith(cases(['X'], ['Y']), pullRequestEnv());
    expect(flakeOnly.outputs).toMatchObject({
      success: 'true',
      status: 'FAILED',
      'new-failures': '0',
      'flaky-failures': '1',
    });
  });

  test('a test failing on main since a commit is labelled so, with how many results', async () => {
    await mainPushes(['X'], [[], [], ['X'], ['X']]);
    const result = await runWith(cases(['X']), pullRequestEnv());
    expect(result.outputs).toMatchObject({ success: 'true', 'new-failures': '0' });
    const seen = visibleLines(gh.comments(owner, repo, number)[0]?.body ?? '');
    expect(seen).toContain('❌ FAILED · X · failing on main since a300000, 2 results · ✅✅❌❌❌');
  });

  test('the window: with history 2, a failure three results back is forgotten, and the test is new again', async () => {
    await mainPushes(['X'], [['X'], [], [], []], { history: '2' });
    expect(checkRunOf(MAIN[3] as string)?.output.text ?? '').not.toContain('commits=a1');
    const result = await runWith(cases(['X']), pullRequestEnv(), { history: '2' });
    expect(result.outputs).toMatchObject({ success: 'false', 'new-failures': '1', 'flaky-failures': '0' });
    // main's results kept two: a wider window on the pull request cannot see further back
    const wide = await runWith(cases(['X']), pullRequestEnv());
    expect(wide.outputs).toMatchObject({ 'new-failures': '1' });
  });

  test("a pull request's own results never enter the history", async () => {
    await mainPushes(['X'], [[], []]);
    await runWith(cases(['X']), pullRequestEnv());
    // its own record holds its own result only, and says whose it is
    expect(checkRunOf(P1)?.output.text ?? '').toMatch(
      /^<!-- test-run-action record v=1\nof=pull-request .*\nc c10{10} 0 1 0 1000\nr \S+ F\n-->$/,
    );
    // main's next push builds on main's previous result, which never saw X fail
    await runWith(cases([], ['X']), pushEnv(MAIN[2] as string));
    expect(checkRunOf(MAIN[2] as string)?.output.text ?? '').toMatch(
      /\nc a10{10} 1 0 0 1000\nc a20{10} 1 0 0 1000\nc a30{10} 1 0 0 1000\n-->$/,
    );
  });

  test('a record that does not validate is ignored with one line, and a fresh one starts', async () => {
    // main's first push wrote no check run; what stands on it is a forgery in the action's name
    await mainPushes(['X'], [['X']], { 'check-run': 'false' });
    gh.seedCheckRun({
      owner,
      repo,
      headSha: MAIN[0] as string,
      name: 'Test run: project proj-1',
      output: {
        title: 'forged',
        summary: '<!-- test-run-action check -->',
        text: '<!-- test-run-action record v=1\nof=branch commit=zz cut=0 qcut=0 name=x\nnot a row\n-->',
      },
    });
    const next = await runWith(cases([], ['X']), pushEnv(MAIN[1] as string));
    expect(next.log).toContain(
      "Ignored 1 check run(s) named 'Test run: project proj-1' on a100000: its record does not read: its header does not read.",
    );
    // fresh: this run's result alone, in which X passed (no row)
    expect(checkRunOf(MAIN[1] as string)?.output.text).toMatch(
      / cut=0 qcut=0 name=\S+\nc a20{10} 1 0 0 1000\n-->$/,
    );
  });

  test('a run of main that did not finish adds no verdicts: the next one builds on the result before it', async () => {
    await mainPushes(['X'], [['X']]);
    const sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    try {
      const inputs = { 'github-token': DEFAULT_TOKEN, timeout: '1s', 'poll-interval': '200ms' };
      const timedOut = await runInProcess(projectInputs(sim, inputs), {
        clock: virtualClock(),
        env: pushEnv(MAIN[1] as string),
      });
      expect(timedOut.outputs.status).toBe('TIMEDOUT');
    } finally {
      await sim.stop();
    }
    // the timed-out run's check run carries main's record on unchanged: its newest column is still a1
    expect(checkRunOf(MAIN[1] as string)?.output.text).toMatch(
      /commit=a10{38} .*\nc a10{10} 0 1 0 1000\nr \S+ F\n-->$/,
    );
    const next = await runWith(cases([], ['X']), pushEnv(MAIN[2] as string));
    expect(next.log).toContain("Compared with a100000 (this branch's previous result)");
    expect(checkRunOf(MAIN[2] as string)?.output.text).toMatch(
      /\nc a10{10} 0 1 0 1000\nc a30{10} 1 0 0 1000\nr \S+ F\.\n-->$/,
    );
  });

  test('a run of main lists its flakiest test cases', async () => {
    await mainPushes(['X', 'Y'], [['X'], [], ['X'], [], ['Y']]);
    const summary = (await runWith(cases(['Y'], ['X']), pushEnv(MAIN[4] as string))).summary;
    expect(summary).toContain('Flakiest on main');
    expect(summary).toMatch(/X · 3 changes · ❌✅❌✅/);
  });
});

describe('quarantine', () => {
  test('a quarantined failure never fails the step; a real failure beside it does; a line matching nothing is named', async () => {
    const inputs = { 'fail-on': 'any', quarantine: 'checkout *\nno such test' };
    // main ran with the same quarantine: in force on the pull request
    await mainPushes(['checkout applies the discount', 'search'], [[]], inputs);
    const both = await runWith(cases(['checkout applies the discount', 'search']), pullRequestEnv(), inputs);
    expect(both.outputs).toMatchObject({ success: 'false', quarantined: '1', failed: '2' });
    expect(annotations(both.log, 'error')[0]).toMatch(/search|2 of 2/);
    expect(both.log).toContain("quarantine: no test case of the run matches 'no such test'.");
    const seen = visibleLines(gh.comments(owner, repo, number)[0]?.body ?? '');
    expect(seen).toContain('🔒 Quarantined');
    expect(seen).toContain('❌ FAILED · checkout applies the discount');

    const alone = await runWith(
      cases(['checkout applies the discount'], ['search']),
      pullRequestEnv(),
      inputs,
    );
    expect(alone.outputs).toMatchObject({ success: 'true', status: 'FAILED', quarantined: '1', failed: '1' });
    expect(alone.log).toContain('1 failing test case is quarantined: the quarantine does not fail the step.');
  });

  test('a quarantined test that did not fail in any result of the history may leave it, the summary says', async () => {
    await mainPushes(['checkout'], [[], [], []]);
    const result = await runWith(cases([], ['checkout']), pushEnv(MAIN[3] as string), {
      quarantine: 'checkout',
    });
    expect(result.summary).toContain('did not fail in any of the last 3 results and may leave it');
  });
});

describe('however far apart the results are', () => {
  /** main M1..M11; nightly runs tested M1 and M9; the pull request branches off M11. */
  const NIGHTLY = Array.from({ length: 11 }, (_, i) => sha(`b${(i + 1).toString(16)}`));
  const [N1, N9, N11] = [NIGHTLY[0], NIGHTLY[8], NIGHTLY[10]] as [string, string, string];
  const Q1 = sha('d1');
  const WORKFLOW_REF = { GITHUB_WORKFLOW_REF: `${owner}/${repo}/.github/workflows/e2e.yml@refs/heads/main` };
  const nightlyGraph = (runs: string[], actions: 'read' | 'none' = 'read'): Scenario => ({
    commits: [
      ...NIGHTLY.map((commit, i) => ({
        owner,
        repo,
        sha: commit,
        parents: i === 0 ? [] : [NIGHTLY[i - 1] as string],
      })),
      { owner, repo, sha: Q1, parents: [N11] },
    ],
    branches: [{ owner, repo, name: 'main', sha: N11 }],
    pulls: [{ owner, repo, number, headSha: Q1, headRef: 'feature-7', baseRef: 'main' }],
    // in the order they ran; a pull request's run on a branch of the same name never counts
    workflowRuns: [
      ...runs.map((headSha) => ({
        owner,
        repo,
        workflow: 'e2e.yml',
        headSha,
        headBranch: 'main',
        event: 'schedule',
      })),
      { owner, repo, workflow: 'e2e.yml', headSha: Q1, headBranch: 'main', event: 'pull_request' },
    ],
    actions,
  });
  const nightlyEnv = (commit: string) => ({
    ...pushEnv(commit),
    ...WORKFLOW_REF,
    GITHUB_EVENT_NAME: 'schedule',
  });
  const prEnv = () => ({
    ...common(),
    ...WORKFLOW_REF,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_SHA: sha('e'),
    GITHUB_EVENT_PATH: pullRequestEventFile({ ...SAMPLE_PULL_REQUEST, headSha: Q1, baseSha: N11 }),
  });

  test('two nightly results eight commits apart build one history; a pull request two commits on sees both', async () => {
    await gh.stop();
    gh = await GitHubSimulator.start(nightlyGraph([]));
    await runWith(cases(['X']), nightlyEnv(N1));
    gh.setScenario(nightlyGraph([N1]));
    const second = await runWith(cases([], ['X']), nightlyEnv(N9));
    expect(second.log).toContain("Compared with b100000 (this branch's previous result)");
    expect(gh.checkRuns(owner, repo, N9)[0]?.output.text).toMatch(
      /\nc b10{10} 0 1 0 1000\nc b90{10} 1 0 0 1000\nr \S+ F\.\n-->$/,
    );
    gh.setScenario(nightlyGraph([N1, N9]));
    const pr = await runWith(cases(['X']), prEnv());
    expect(pr.outputs).toMatchObject({ success: 'true', 'new-failures': '0', 'flaky-failures': '1' });
    expect(pr.log).toContain('Compared with main at b900000 (the base branch)');
  });

  test("without 'actions: read', round 5's look-back, and one line naming the permission", async () => {
    await gh.stop();
    gh = await GitHubSimulator.start(nightlyGraph([N1], 'none'));
    await runWith(cases(['X']), nightlyEnv(N1));
    const second = await runWith(cases([], ['X']), nightlyEnv(N9));
    expect(second.log).toMatch(
      /Could not search this workflow's runs of main \(the workflow needs 'permissions: actions: read'\): looking back 5 commits instead\./,
    );
    // eight commits back is past the look-back: the history starts again
    expect(gh.checkRuns(owner, repo, N9)[0]?.output.text).toMatch(
      /commit=b90{38} cut=0 qcut=0 name=\S+\nc b90{10} 1 0 0 1000\n-->$/,
    );
  });

  test('a re-run of an old commit is never the newest result: ancestry decides, not time', async () => {
    await gh.stop();
    gh = await GitHubSimulator.start(nightlyGraph([]));
    await runWith(cases(['X']), nightlyEnv(N1));
    gh.setScenario(nightlyGraph([N1]));
    await runWith(cases([], ['X']), nightlyEnv(N9));
    // N1 is run again after N9 (newest by time); N11's previous result is still N9's
    gh.setScenario(nightlyGraph([N1, N9, N1]));
    const next = await runWith(cases([], ['X']), nightlyEnv(N11));
    expect(next.log).toContain("Compared with b900000 (this branch's previous result)");
  });
});

describe('a quarantine that cannot rot or be abused (round 7)', () => {
  const titles = ['checkout pays', 'search finds', 'login works'];

  test("an expired entry and a pull request's own entry protect nothing; an entry main ran with does", async () => {
    const onMain = { quarantine: 'checkout *\nsearch * until 2026-12-10' };
    await runWith(cases([], titles), pushEnv(MAIN[0] as string), onMain, ON('2026-12-04'));
    expect(checkRunOf(MAIN[0] as string)?.output.text).toContain(
      '\nq - checkout%20*\nq 2026-12-10 search%20*\n',
    );

    // the pull request adds 'login *' in the same change that breaks login
    const onPullRequest = { quarantine: 'checkout *\nsearch * until 2026-12-31\nlogin *' };
    const first = await runWith(cases(titles), pullRequestEnv(), onPullRequest, ON('2026-12-04'));
    expect(first.outputs).toMatchObject({ success: 'false', quarantined: '2', 'new-failures': '1' });
    expect(first.log).toContain(
      "quarantine: 'login *' not yet in force: the base branch has not run with it.",
    );
    // the earlier of the two dates applies
    expect(first.log).toContain("quarantine: 'search *' expires on 2026-12-10.");
    expect(first.summary).toContain('not yet in force');

    // after its day, the entry protects nothing, and one warning names it and the day
    const later = await runWith(
      cases(['checkout pays', 'search finds'], ['login works']),
      pullRequestEnv(),
      onPullRequest,
      ON('2026-12-11'),
    );
    expect(later.outputs).toMatchObject({ success: 'false', quarantined: '1', 'new-failures': '1' });
    expect(annotations(later.log, 'warning')).toContain(
      "::warning::quarantine: 'search *' expired on 2026-12-10: its test cases are judged like any other.",
    );
  });

  test('removing an entry takes effect at once; a branch applies its own entries', async () => {
    await runWith(
      cases([], titles),
      pushEnv(MAIN[0] as string),
      { quarantine: 'checkout *' },
      ON('2026-12-04'),
    );
    const removed = await runWith(
      cases(['checkout pays'], titles.slice(1)),
      pullRequestEnv(),
      {},
      ON('2026-12-04'),
    );
    expect(removed.outputs).toMatchObject({ success: 'false', quarantined: '0', 'new-failures': '1' });
    const onBranch = await runWith(
      cases(['login works'], titles.slice(0, 2)),
      pushEnv(MAIN[1] as string),
      { quarantine: 'login *' },
      ON('2026-12-04'),
    );
    expect(onBranch.outputs).toMatchObject({ success: 'true', quarantined: '1' });
  });
});

describe('slower than the base branch (round 7)', () => {
  const timed = (ms: Record<string, number>, failing: string[] = []): SimTestCase[] =>
    Object.entries(ms).map(([title, durationMs]) => ({
      title,
      status: failing.includes(title) ? 'FAILED' : 'PASSED',
      durationMs,
    }));

  test('three times its typical duration is labelled and counted, 1.3 times is not; the summary draws main and lists the slowest', async () => {
    for (const commit of MAIN.slice(0, 3)) {
      await runWith(timed({ checkout: 10_000, search: 10_000, login: 2_000 }), pushEnv(commit), {});
    }
    const result = await runWith(timed({ checkout: 31_000, search: 13_000, login: 2_100 }), pullRequestEnv());
    expect(result.outputs).toMatchObject({ success: 'true', slower: '1' });
    const entry = JSON.parse(result.outputs.runs ?? '[]')[0];
    expect(entry).toMatchObject({ slower: 1 });
    const seen = visibleLines(result.summary);
    expect(seen).toContain('checkout · slower than main: 31.0 s, typically 10.0 s');
    expect(seen.join('\n')).not.toContain('search · slower');
    expect(seen).toContain('search · 13.0 s, typically 10.0 s');
    expect(visibleLines(gh.comments(owner, repo, number)[0]?.body ?? '')).toContain(
      'checkout · slower than main: 31.0 s, typically 10.0 s',
    );
    expect(checkRunOf(P1)?.output.summary).toContain('slower than main: 31.0 s, typically 10.0 s');
    // the base branch at a glance: two Mermaid charts of main's three results
    expect(result.summary).toContain('```mermaid\nxychart-beta\n  title "Failed test cases on main"');
    expect(result.summary).toContain('x-axis "Oldest to newest" ["a100000", "a200000", "a300000"]');
    const results = JSON.parse(readFileSync(result.outputs['results-file'] ?? '', 'utf8'));
    expect(results.runs[0].testCases).toEqual([
      expect.objectContaining({ title: 'checkout', slower: true, typicalMs: 10_000 }),
      expect.objectContaining({ title: 'search', slower: false, typicalMs: 10_000 }),
      expect.objectContaining({ title: 'login', slower: false, typicalMs: 2_000 }),
    ]);
  });

  test('fewer than three results, or slowdown off: slower is empty', async () => {
    for (const commit of MAIN.slice(0, 2)) await runWith(timed({ checkout: 10_000 }), pushEnv(commit), {});
    const young = await runWith(timed({ checkout: 40_000 }), pullRequestEnv());
    expect(young.outputs.slower).toBe('');
    await runWith(timed({ checkout: 10_000 }), pushEnv(MAIN[2] as string), {});
    const off = await runWith(timed({ checkout: 40_000 }), pullRequestEnv(), { slowdown: 'off' });
    expect(off.outputs.slower).toBe('');
    const on = await runWith(timed({ checkout: 40_000 }), pullRequestEnv());
    expect(on.outputs.slower).toBe('1');
  });
});
