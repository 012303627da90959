import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  resultsFileName,
  resultsJson,
  stepResultsFileName,
  writeResultsFile,
} from '../../src/report/results-file.js';
import { makeOutcome, threeTargets } from './helpers.js';

describe('results file', () => {
  it('is named after the run id, with a hash of it when the id had to be changed', () => {
    expect(resultsFileName('run-1.a_b')).toBe('test-run-run-1.a_b.json');
    expect(resultsFileName('../x/y z')).toMatch(/^test-run-\.\._x_y_z-[0-9a-f]{10}\.json$/);
    expect(resultsFileName(undefined)).toBe('test-run-unknown.json');
    expect(resultsFileName('é'.repeat(300))).toMatch(
      new RegExp(`^test-run-${'_'.repeat(100)}-[0-9a-f]{10}\\.json$`),
    );
  });

  it('never gives two run ids the same file', () => {
    const ids = ['a/b', 'a_b', 'a b', 'a:b', 'a\\b', `${'x'.repeat(100)}1`, `${'x'.repeat(100)}2`];
    expect(new Set(ids.map(resultsFileName)).size).toBe(ids.length);
  });

  it('holds the normalised run and every test case, titles whole, compact', async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'results-test-')), 'nested');
    const long = `${'t'.repeat(300)}\nsecond line`;
    const outcome = makeOutcome(
      [
        { title: long, status: 'FAILED', durationMs: 12 },
        { title: 'no status' },
        { title: 'flaky', status: 'FLAKY' },
      ],
      {
        mode: 'suite',
        testSuiteId: 'suite-1',
        testSuiteName: 'Suite',
        startedAt: '2024-01-01T00:00:00Z',
        finishedAt: '2024-01-01T00:03:04Z',
        message: 'why',
        notes: ['a note'],
        appliedOptions: { retries: 1 },
      },
    );
    const file = await writeResultsFile([outcome], dir);
    expect(file).toBe(path.join(dir, 'test-run-run-1.json'));
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(resultsJson([outcome]));
    expect(text).not.toMatch(/\n {2}/);
    const document = JSON.parse(text);
    // The step's document with one target in `runs`, as with several.
    expect(document).toEqual({
      schemaVersion: 1,
      status: 'FAILED',
      success: false,
      counts: { total: 3, passed: 0, failed: 2, flaky: 1, skipped: 0 },
      durationMs: 184_000,
      runs: [expect.any(Object)],
    });
    expect(document.runs[0]).toEqual({
      mode: 'suite',
      status: 'FAILED',
      success: false,
      runId: 'run-1',
      projectId: 'proj-1',
      testSuiteId: 'suite-1',
      testSuiteName: 'Suite',
      branch: 'main',
      environment: 'staging',
      startedAt: '2024-01-01T00:00:00Z',
      finishedAt: '2024-01-01T00:03:04Z',
      durationMs: 184_000,
      counts: { total: 3, passed: 0, failed: 2, flaky: 1, skipped: 0 },
      message: 'why',
      notes: ['a note'],
      testCases: [
        {
          title: long,
          status: 'FAILED',
          verdict: 'failure',
          durationMs: 12,
          label: null,
          record: null,
          typicalMs: null,
          slower: null,
        },
        {
          title: 'no status',
          status: null,
          verdict: 'unfinished',
          label: null,
          record: null,
          typicalMs: null,
          slower: null,
        },
        {
          title: 'flaky',
          status: 'FLAKY',
          verdict: 'flaky',
          label: null,
          record: null,
          typicalMs: null,
          slower: null,
        },
      ],
    });
  });

  it("keeps the service's order, where the reports list failures first", () => {
    const outcome = makeOutcome([
      { title: 'a', status: 'PASSED' },
      { title: 'b', status: 'FLAKY' },
      { title: 'c', status: 'FAILED' },
    ]);
    const titles = (testCases: readonly { title: string }[]) => testCases.map(({ title }) => title);
    expect(titles(JSON.parse(resultsJson([outcome])).runs[0].testCases)).toEqual(['a', 'b', 'c']);
    expect(titles(outcome.reportOrder)).toEqual(['c', 'b', 'a']);
  });

  it('leaves out what is unknown', () => {
    const { runs } = JSON.parse(
      resultsJson([
        makeOutcome([], {
          status: 'ERROR',
          success: false,
          runId: undefined,
          branch: undefined,
          durationMs: undefined,
        }),
      ]),
    );
    expect(Object.keys(runs[0])).toEqual([
      'mode',
      'status',
      'success',
      'projectId',
      'environment',
      'counts',
      'notes',
      'testCases',
    ]);
  });
});

describe('results file of several targets', () => {
  it('is named after the step, with a hash of its name when that had to be changed', () => {
    expect(stepResultsFileName('e2e')).toBe('test-runs-e2e.json');
    expect(stepResultsFileName('__acme_test-run-action_2')).toBe('test-runs-__acme_test-run-action_2.json');
    expect(stepResultsFileName('a/b')).toMatch(/^test-runs-a_b-[0-9a-f]{10}\.json$/);
    expect(stepResultsFileName(undefined)).toBe('test-runs-step.json');
    expect(stepResultsFileName('')).toBe('test-runs-step.json');
  });

  it("holds the step's outcome and every target's run, each as the one-target file would", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'results-test-'));
    const outcomes = threeTargets();
    const file = await writeResultsFile(outcomes, dir, 'e2e');
    expect(file).toBe(path.join(dir, 'test-runs-e2e.json'));
    const document = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(document)).toEqual([
      'schemaVersion',
      'status',
      'success',
      'counts',
      'durationMs',
      'runs',
    ]);
    expect(document).toMatchObject({
      schemaVersion: 1,
      status: 'ERROR',
      success: false,
      counts: { total: 6, passed: 5, failed: 1, flaky: 0, skipped: 0 },
      durationMs: 5_000,
    });
    expect(document.runs).toEqual(outcomes.map((outcome) => JSON.parse(resultsJson([outcome])).runs[0]));
    expect(document.runs.map((run: { runId?: string }) => run.runId)).toEqual(['run-1', 'run-2', undefined]);
    expect(document.runs[1].testCases.map((testCase: { title: string }) => testCase.title)).toEqual([
      'PASSED 0',
      'PASSED 1',
      'FAILED 0',
    ]);
  });
});
