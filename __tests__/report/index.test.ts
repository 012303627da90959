import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeReports } from '../../src/report/index.js';
import { junitXml } from '../../src/report/junit.js';
import { cases, makeOutcome, reportSetUp } from './helpers.js';

const { files, stdout } = reportSetUp();

describe('writeReports', () => {
  it('sets every output', async () => {
    const outcome = makeOutcome([...cases(9, 'PASSED'), ...cases(2, 'FAILED'), ...cases(1, 'FLAKY')], {
      durationMs: 1234.4,
    });
    const junitPath = path.join(files.dir, 'out', 'deep', 'junit.xml');
    const written = await writeReports([outcome], { summary: true, resultsDir: files.dir, junitPath });
    expect(written).toEqual({
      resultsFile: path.join(files.dir, 'test-run-run-1.json'),
      junitFile: junitPath,
      failures: ['Project run run-1 ended FAILED: 2 of 12 test cases failed.'],
    });
    expect(files.readOutputs()).toEqual({
      status: 'FAILED',
      'dashboard-url': '',
      'check-run-url': '',
      total: '12',
      passed: '9',
      failed: '2',
      flaky: '1',
      skipped: '0',
      'duration-ms': '1234',
      'new-failures': '',
      fixed: '',
      'flaky-failures': '',
      quarantined: '0',
      slower: '',
      'results-file': written.resultsFile,
      'junit-file': junitPath,
      runs: JSON.stringify([
        {
          kind: 'project',
          id: 'proj-1',
          runId: 'run-1',
          status: 'FAILED',
          success: false,
          counts: { total: 12, passed: 9, failed: 2, flaky: 1, skipped: 0 },
          newFailures: null,
          fixed: null,
          flakyFailures: null,
          quarantined: 0,
          slower: null,
          dashboardUrl: null,
          checkRunUrl: null,
        },
      ]),
    });
    expect(readFileSync(junitPath, 'utf8')).toBe(junitXml([outcome]));
  });

  it('leaves out duration-ms when unknown and junit-file when not asked for', async () => {
    const written = await writeReports([makeOutcome(cases(1, 'PASSED'), { durationMs: undefined })], {
      summary: true,
      resultsDir: files.dir,
    });
    expect(written.junitFile).toBeUndefined();
    const outputs = files.readOutputs();
    expect(outputs).not.toHaveProperty('success');
    expect(outputs).not.toHaveProperty('duration-ms');
    expect(outputs).not.toHaveProperty('junit-file');
  });

  it('logs the counts and each failed test case, at most 50', async () => {
    await writeReports([makeOutcome([...cases(1, 'PASSED'), ...cases(60, 'FAILED'), { title: 'x\ny' }])], {
      summary: false,
      resultsDir: files.dir,
    });
    const lines = stdout.lines().filter((line) => !line.startsWith('::'));
    expect(lines[0]).toBe('62 test cases: 1 passed, 61 failed, 0 flaky, 0 skipped');
    expect(lines[1]).toBe('  ✗ FAILED  FAILED 0');
    expect(lines.filter((line) => line.startsWith('  ✗ '))).toHaveLength(50);
    expect(lines).toContain('  … and 11 more');
  });

  it('logs an unfinished test case as such', async () => {
    await writeReports([makeOutcome([{ title: 'x\ny' }])], { summary: false, resultsDir: files.dir });
    expect(stdout.lines()).toContain('  ✗ did not finish (no status)  x\\ny');
  });

  it('a run started without waiting: status only, one-line summary, no files', async () => {
    const dir = path.join(files.dir, 'started');
    const written = await writeReports(
      [makeOutcome([], { status: 'STARTED', success: true, mode: 'suite', testSuiteName: 'S' })],
      {
        summary: true,
        resultsDir: dir,
        junitPath: path.join(dir, 'junit.xml'),
      },
    );
    expect(written).toEqual({ failures: [] });
    expect(files.readOutputs()).toEqual({
      status: 'STARTED',
      'dashboard-url': '',
      runs: JSON.stringify([
        {
          kind: 'suite',
          id: null,
          runId: 'run-1',
          status: 'STARTED',
          success: true,
          counts: null,
          newFailures: null,
          fixed: null,
          flakyFailures: null,
          quarantined: null,
          slower: null,
          dashboardUrl: null,
          checkRunUrl: null,
        },
      ]),
    });
    expect(files.readSummary()).toBe(
      '<p>Started test suite run <code>run-1</code> of <strong>S</strong> (not waiting for it).</p>\n',
    );
    expect(files.readSummary().trim().split('\n')).toHaveLength(1);
    expect(existsSync(dir)).toBe(false);
    expect(stdout.lines().filter((line) => line.startsWith('::'))).toEqual([]);
  });

  it('a JUnit report that cannot be written is returned as an error after the rest is written', async () => {
    const blocker = path.join(files.dir, 'blocker');
    writeFileSync(blocker, '');
    const written = await writeReports([makeOutcome(cases(1, 'PASSED'))], {
      summary: true,
      resultsDir: files.dir,
      junitPath: path.join(blocker, 'junit.xml'),
    });
    expect(written.failures).toEqual([
      expect.stringMatching(/^Could not write the JUnit report to .*blocker/),
    ]);
    expect(files.readOutputs()).toMatchObject({ status: 'PASSED' });
    expect(files.readSummary()).toContain('Test run passed');
    expect(files.readOutputs()).toHaveProperty('results-file');
    expect(files.readOutputs()).not.toHaveProperty('junit-file');
  });

  it('a results file that cannot be written only warns', async () => {
    const blocker = path.join(files.dir, 'blocker2');
    writeFileSync(blocker, '');
    const written = await writeReports([makeOutcome(cases(1, 'PASSED'))], {
      summary: false,
      resultsDir: blocker,
    });
    expect(written.resultsFile).toBeUndefined();
    expect(stdout.text()).toContain('::warning::Could not write the results file: ');
  });
});
