import path from 'node:path';
import { readWorkflowRun } from '../../src/inputs/workflow-run.js';
import { writeReports } from '../../src/report/index.js';
import type { OutputStatus, RunOutcome } from '../../src/report/outcome.js';
import { stepOutcome, worstStatus } from '../../src/report/targets.js';
import { cases, makeOutcome, reportSetUp, threeTargets } from './helpers.js';

const { files, stdout } = reportSetUp();

// The contract's order, worst first, written here again so that the code's cannot drift from it.
const WORST_FIRST: OutputStatus[] = [
  'ERROR',
  'TIMEDOUT',
  'INTERRUPTED',
  'FAILED',
  'CANCELLED',
  'PASSED',
  'STARTED',
];
const pairs = WORST_FIRST.flatMap((worse, i) => WORST_FIRST.slice(i + 1).map((better) => [worse, better]));

describe('the step of several targets', () => {
  it.each(pairs)('%s is worse than %s, in either order', (worse, better) => {
    expect(worstStatus([worse as OutputStatus, better as OutputStatus])).toBe(worse);
    expect(worstStatus([better as OutputStatus, worse as OutputStatus])).toBe(worse);
  });

  it('is STARTED only when every target is', () => {
    expect(worstStatus(['STARTED', 'STARTED'])).toBe('STARTED');
    expect(worstStatus(['STARTED', 'PASSED', 'STARTED'])).toBe('PASSED');
  });

  it('sums the counts, takes the longest duration, and passes only when every target passes', () => {
    const outcomes = threeTargets();
    expect(stepOutcome(outcomes)).toEqual({
      status: 'ERROR',
      success: false,
      counts: { total: 6, passed: 5, failed: 1, flaky: 0, skipped: 0 },
      durationMs: 5_000,
    });
    expect(stepOutcome(outcomes.slice(0, 1)).success).toBe(true);
  });
});

describe('outputs', () => {
  it('one target: runs has one element', async () => {
    await writeReports([makeOutcome(cases(2, 'PASSED'))], { summary: false, resultsDir: files.dir });
    expect(JSON.parse(files.readOutputs().runs ?? '')).toEqual([
      {
        kind: 'project',
        id: 'proj-1',
        runId: 'run-1',
        status: 'PASSED',
        success: true,
        counts: { total: 2, passed: 2, failed: 0, flaky: 0, skipped: 0 },
        newFailures: null,
        fixed: null,
        flakyFailures: null,
        quarantined: 0,
        slower: null,
        dashboardUrl: null,
        checkRunUrl: null,
      },
    ]);
  });

  it("three targets: the step's status, sums, a line per target, a runs element per target", async () => {
    const outcomes = threeTargets();
    outcomes[1] = { ...(outcomes[1] as RunOutcome), checkRunUrl: 'https://github.example/checks/2' };
    const workflow = readWorkflowRun({ GITHUB_ACTION: 'e2e' });
    const written = await writeReports(outcomes, { summary: false, resultsDir: files.dir, workflow });
    expect(written).toEqual({
      resultsFile: path.join(files.dir, 'test-runs-e2e.json'),
      failures: [
        'Test suite run run-2 failed: 1 of 3 test cases failed.',
        'Could not start the project run of proj-3: HTTP 503.',
      ],
    });
    const { runs, ...outputs } = files.readOutputs();
    expect(outputs).toEqual({
      status: 'ERROR',
      'dashboard-url': 'https://d.example/run-1\n\n',
      'check-run-url': '\nhttps://github.example/checks/2\n',
      total: '6',
      passed: '5',
      failed: '1',
      flaky: '0',
      skipped: '0',
      'duration-ms': '5000',
      'new-failures': '1',
      fixed: '2',
      'flaky-failures': '0',
      quarantined: '0',
      slower: '',
      'results-file': path.join(files.dir, 'test-runs-e2e.json'),
    });
    const counts = (passed: number, failed: number) => ({
      total: passed + failed,
      passed,
      failed,
      flaky: 0,
      skipped: 0,
    });
    expect(JSON.parse(runs ?? '')).toEqual([
      {
        kind: 'project',
        id: 'proj-1',
        runId: 'run-1',
        status: 'PASSED',
        success: true,
        counts: counts(3, 0),
        newFailures: 0,
        fixed: 1,
        flakyFailures: 0,
        quarantined: 0,
        slower: null,
        dashboardUrl: 'https://d.example/run-1',
        checkRunUrl: null,
      },
      {
        kind: 'suite',
        id: 'suite-2',
        runId: 'run-2',
        status: 'FAILED',
        success: false,
        counts: counts(2, 1),
        newFailures: 1,
        fixed: 1,
        flakyFailures: 0,
        quarantined: 0,
        slower: null,
        dashboardUrl: null,
        checkRunUrl: 'https://github.example/checks/2',
      },
      {
        kind: 'project',
        id: 'proj-3',
        runId: null,
        status: 'ERROR',
        success: false,
        counts: counts(0, 0),
        newFailures: null,
        fixed: null,
        flakyFailures: null,
        quarantined: 0,
        slower: null,
        dashboardUrl: null,
        checkRunUrl: null,
      },
    ]);
  });

  it('new-failures and fixed stay empty when no target was compared', async () => {
    const outcomes = threeTargets().map(({ judgment, ...outcome }) => outcome);
    await writeReports(outcomes, { summary: false, resultsDir: files.dir });
    expect(files.readOutputs()).toMatchObject({ 'new-failures': '', fixed: '' });
  });

  it('logs each target by name and run, its failing test cases under it', async () => {
    const outcomes = threeTargets();
    const judged = stdout.lines().length;
    await writeReports(outcomes, { summary: false, resultsDir: files.dir });
    const lines = stdout
      .lines()
      .slice(judged)
      .filter((line) => !line.startsWith('::'));
    expect(lines).toEqual([
      'project proj-1, run run-1: 3 test cases: 3 passed, 0 failed, 0 flaky, 0 skipped',
      'Checkout, run run-2: 3 test cases: 2 passed, 1 failed, 0 flaky, 0 skipped',
      '  ✗ FAILED  FAILED 0',
      'project proj-3: 0 test cases: 0 passed, 0 failed, 0 flaky, 0 skipped',
    ]);
  });
});
