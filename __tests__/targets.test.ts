import { once } from 'node:events';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { visibleLines } from './helpers/gfm.js';
import { runInProcess, virtualClock } from './helpers/in-process.js';
import { StandInCloudflared } from './simulator/cloudflared-stand-in.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from './simulator/github.js';
import { eventFile, pushToMainEnv } from './simulator/github-events.js';
import { DEFAULT_API_KEY, type SimTestCase, Simulator } from './simulator/simulator.js';

/** Several targets in one step: started together, polled together, reported together. */
let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
});

const failed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'FAILED' }));
const passed = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'PASSED' }));

const inputs = (extra: Record<string, string>) => ({
  'api-key': DEFAULT_API_KEY,
  'base-url': sim.url,
  'poll-interval': '20ms',
  ...extra,
});
const runs = (outputs: Record<string, string>) =>
  JSON.parse(outputs.runs ?? '[]') as Record<string, unknown>[];
const starts = () => sim.requests.filter((request) => request.operation.startsWith('start'));

describe('several targets in one step', () => {
  test('three suites started together, one failing: reported together, the worst status, counts summed', async () => {
    sim = await Simulator.start({
      suites: {
        checkout: { testSuiteName: 'Checkout', testCases: passed('pay', 'ship') },
        search: { testSuiteName: 'Search', testCases: [...failed('suggest'), ...passed('filter')] },
        account: { testSuiteName: 'Account', testCases: passed('sign in') },
      },
    });
    const result = await runInProcess(inputs({ 'test-suite-id': 'checkout\nsearch\naccount' }), {
      env: { GITHUB_ACTION: 'e2e' },
    });
    const started = starts();
    expect(started.map((request) => request.path.split('/').at(-2))).toEqual([
      'checkout',
      'search',
      'account',
    ]);
    // Started at once: the last start went out before the first run was polled.
    const firstPoll = sim.requests.findIndex((request) => request.operation.startsWith('get'));
    expect(sim.requests.indexOf(started[2] as (typeof started)[number])).toBeLessThan(firstPoll);
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({
      status: 'FAILED',
      success: 'false',
      'run-id': 'suite-run-1\nsuite-run-2\nsuite-run-3',
      total: '5',
      passed: '4',
      failed: '1',
    });
    expect(runs(result.outputs).map((run) => [run.id, run.runId, run.status])).toEqual([
      ['checkout', 'suite-run-1', 'PASSED'],
      ['search', 'suite-run-2', 'FAILED'],
      ['account', 'suite-run-3', 'PASSED'],
    ]);
    // The totals, a line per target, then a section per target, the failing one's failure listed.
    expect(result.summary).toMatch(/^<h2>❌ 3 test runs: 1 FAILED, 2 PASSED<\/h2>/);
    for (const name of ['Checkout', 'Search', 'Account'])
      expect(result.summary).toContain(`Test run ${name === 'Search' ? 'failed' : 'passed'}: ${name}`);
    expect(result.summary).toContain('<td>❌ FAILED</td><td>suggest</td>');
    // One results file for the step, named after it, with every run.
    expect(path.basename(result.outputs['results-file'] ?? '')).toBe('test-runs-e2e.json');
    const file = JSON.parse(fs.readFileSync(result.outputs['results-file'] ?? '', 'utf8'));
    expect(file.runs.map((run: { runId: string }) => run.runId)).toEqual([
      'suite-run-1',
      'suite-run-2',
      'suite-run-3',
    ]);
  });

  test('a project and a suite in one step, project first', async () => {
    sim = await Simulator.start({ project: { testCases: passed('a') }, suite: { testCases: passed('b') } });
    const result = await runInProcess(inputs({ 'project-id': 'proj-1', 'test-suite-id': 'suite-1' }));
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', total: '2' });
    expect(runs(result.outputs).map((run) => [run.kind, run.id])).toEqual([
      ['project', 'proj-1'],
      ['suite', 'suite-1'],
    ]);
  });

  test("a tunnel that cannot open stops the suite's run, not the project's, which keeps its links", async () => {
    sim = await Simulator.start({ project: { testCases: failed('a') } });
    const closed = net.createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const origin = `http://127.0.0.1:${(closed.address() as net.AddressInfo).port}`;
    await new Promise((done) => closed.close(done));
    // Found on PATH, so that nothing is downloaded; never started, as the origin never answers.
    const standIn = await StandInCloudflared.create();
    const pathBefore = process.env.PATH;
    process.env.PATH = `${standIn.binDir}${path.delimiter}${pathBefore}`;
    try {
      const result = await runInProcess(
        inputs({
          'project-id': 'proj-1',
          'test-suite-id': 'suite-1',
          tunnel: origin,
          options: JSON.stringify({
            urlReplacements: [{ original: 'https://example.com', replacement: origin }],
          }),
          'dashboard-url': 'https://dashboard.example.com/{projectId}/runs/{runId}',
        }),
        { clock: virtualClock() },
      );
      const [project, suite] = runs(result.outputs);
      const link = 'https://dashboard.example.com/proj-1/runs/run-1';
      expect([project?.success, project?.dashboardUrl]).toEqual([false, link]);
      expect([suite?.status, suite?.dashboardUrl]).toEqual(['ERROR', null]);
      expect(result.outputs['dashboard-url']).toBe(`${link}\n`);
      expect(result.log).toMatch(new RegExp(`^::error::.*The service's page for the run: ${link}$`, 'm'));
      expect(result.log).toMatch(/^::error::.*nothing answered there within .*No run was started\.$/m);
      expect(starts().map((request) => request.operation)).toEqual(['startProjectRun']);
      expect(standIn.invocations()).toEqual([]);
    } finally {
      process.env.PATH = pathBefore;
      await standIn.cleanup();
    }
  });

  test('one start answering 404: that target is ERROR, the others run to their end', async () => {
    sim = await Simulator.start({
      knownSuiteIds: ['checkout', 'account'],
      suite: { testCases: passed('x') },
    });
    const result = await runInProcess(inputs({ 'test-suite-id': 'checkout\ngone\naccount' }));
    expect(result.outputs).toMatchObject({
      status: 'ERROR',
      success: 'false',
      'run-id': 'suite-run-1\n\nsuite-run-2',
    });
    expect(runs(result.outputs).map((run) => run.status)).toEqual(['PASSED', 'ERROR', 'PASSED']);
    expect(result.log).toMatch(/Could not start a test suite run for test suite 'gone'.*404/);
    // No start answered: still a line per target.
    const none = await runInProcess(inputs({ 'test-suite-id': 'gone\nlost' }));
    expect(none.outputs).toMatchObject({ status: 'ERROR', 'run-id': '\n' });
  });

  test('a run that ended early is not asked again while the others run', async () => {
    sim = await Simulator.start({
      suites: {
        quick: { statuses: ['FINISHED'] },
        slow: { statuses: ['RUNNING', 'RUNNING', 'RUNNING', 'FINISHED'] },
      },
    });
    const result = await runInProcess(inputs({ 'test-suite-id': 'quick\nslow' }), { clock: virtualClock() });
    expect(result.outputs.status).toBe('PASSED');
    const statusGets = (runId: string) =>
      sim.requests.filter(
        (request) => request.operation === 'getSuiteRunStatus' && request.path.includes(`/${runId}/`),
      );
    expect([statusGets('suite-run-1').length, statusGets('suite-run-2').length]).toEqual([1, 4]);
  });

  test('a cancelled job cancels every run still in progress; a time-out too', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const controller = new AbortController();
    void sim.waitForRequests('getProjectRun', 2).then(() => controller.abort());
    const cancelled = await runInProcess(inputs({ 'project-id': 'proj-1\nproj-2' }), {
      cancelSignal: controller.signal,
    });
    expect(cancelled.outputs.status).toBe('CANCELLED');
    expect([...sim.cancelledRunIds].sort()).toEqual(['run-1', 'run-2']);
    const timedOut = await runInProcess(inputs({ 'project-id': 'proj-1\nproj-2', timeout: '2s' }), {
      clock: virtualClock(),
    });
    expect(timedOut.outputs.status).toBe('TIMEDOUT');
    expect([...sim.cancelledRunIds].sort()).toEqual(['run-1', 'run-2', 'run-3', 'run-4']);
  });

  test('one check run per target on the commit, the commit listed once', async () => {
    sim = await Simulator.start({ suites: { search: { testCases: failed('suggest') } } });
    const gh = await GitHubSimulator.start();
    try {
      const sha = 'a1'.padEnd(40, '0');
      const env = {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_SHA: sha,
        GITHUB_EVENT_PATH: eventFile({}),
        GITHUB_API_URL: gh.url,
        GITHUB_REPOSITORY: 'octo/shop',
      };
      const result = await runInProcess(
        inputs({ 'test-suite-id': 'checkout\nsearch', 'github-token': DEFAULT_TOKEN }),
        { env },
      );
      const written = gh.checkRuns('octo', 'shop', sha).map((run) => [run.name, run.conclusion]);
      expect(written.sort()).toEqual([
        ['Test run: suite checkout', 'success'],
        ['Test run: suite search', 'failure'],
      ]);
      expect(gh.count('listCheckRunsForRef')).toBe(1);
      const urlOf = (name: string) =>
        gh.checkRuns('octo', 'shop', sha).find((run) => run.name === name)?.html_url;
      const urls = [urlOf('Test run: suite checkout'), urlOf('Test run: suite search')];
      expect(urls.every(Boolean)).toBe(true);
      expect(result.outputs['check-run-url']).toBe(urls.join('\n'));
      expect(runs(result.outputs).map((entry) => entry.checkRunUrl)).toEqual(urls);
    } finally {
      await gh.stop();
    }
  });

  test("the pull request's one comment has a section per target, each compared with main's result of that target", async () => {
    const { owner, repo, number } = SAMPLE_PULL_REQUEST;
    const main = 'a'.repeat(40);
    const heads = ['1', '2'].map((digit) => digit.repeat(40));
    const graph = {
      commits: [
        { owner, repo, sha: main, parents: [] },
        ...heads.map((sha) => ({ owner, repo, sha, parents: [main] })),
      ],
      branches: [{ owner, repo, name: 'main', sha: main }],
    };
    const gh = await GitHubSimulator.start(graph);
    const comments = () => gh.comments(owner, repo, number);
    const ids = 'checkout\nsearch';
    const extra = {
      'test-suite-id': ids,
      'pr-comment': 'always',
      'github-token': DEFAULT_TOKEN,
      'fail-on': 'new',
    };
    const suites = (byId: Record<string, SimTestCase[]>) =>
      sim.setScenario({
        suites: Object.fromEntries(Object.entries(byId).map(([id, testCases]) => [id, { testCases }])),
      });
    /** A push of the pull request (its head moves to `headSha`). */
    const onPullRequest = (headSha: string) => {
      gh.setScenario({ ...graph, pulls: [{ ...SAMPLE_PULL_REQUEST, headSha, baseRef: 'main' }] });
      const env = {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: pullRequestEventFile({ ...SAMPLE_PULL_REQUEST, headSha, baseSha: main }),
        GITHUB_API_URL: gh.url,
        GITHUB_REPOSITORY: `${owner}/${repo}`,
      };
      return runInProcess(inputs(extra), { env });
    };
    try {
      sim = await Simulator.start();
      // main's push tests both suites in one step: a result per target.
      suites({ checkout: failed('X'), search: failed('Y') });
      await runInProcess(inputs(extra), { env: pushToMainEnv(gh.url, main) });
      // The pull request: Z is new on checkout; X and Y fail on main too.
      suites({ checkout: failed('X', 'Z'), search: failed('Y') });
      const step = await onPullRequest(heads[0] as string);
      expect(step.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
      const [mine] = comments();
      expect(mine?.body).toContain(
        '<!-- test-run-action step [mode=suite suite=checkout] [mode=suite suite=search] -->',
      );
      expect(visibleLines(mine?.body ?? '').filter((line) => line.includes('Test run failed'))).toEqual([
        '❌ Test run failed · 1 new failure, 0 flaky on main, 1 failing on main, 0 fixed',
        '⚠️ Test run failed, no new failures · 0 new failures, 0 flaky on main, 1 failing on main, 0 fixed',
      ]);
      // The next push compares with main again: Z is still new, whatever the comment said.
      const next = await onPullRequest(heads[1] as string);
      expect(next.outputs).toMatchObject({ success: 'false', 'new-failures': '1' });
      expect(comments()).toHaveLength(1);
      expect(next.outputs['comment-url']).toBe(mine?.html_url);
    } finally {
      await gh.stop();
    }
  });
});
