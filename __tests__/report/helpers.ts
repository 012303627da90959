import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, jest } from '@jest/globals';
import type { RunOutcome } from '../../src/report/outcome.js';
import { nextRecord } from '../../src/report/record.js';
import { judge } from '../../src/report/test-case-status.js';
import { finishedOutcome } from '../../src/run/conclude.js';
import { judgeAgainst } from '../../src/run/judgment.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { makeRunnerFiles, readKeyValueFile, readSummary } from '../helpers/runner-files.js';

/**
 * The outcome of a finished project run with the given test cases, concluded the way the action
 * does (so verdicts, counts and success follow from them), then `overrides`.
 */
export function makeOutcome(testCases: TestCaseResult[], overrides: Partial<RunOutcome> = {}): RunOutcome {
  const failOnFlaky = overrides.failOnFlaky ?? false;
  const anyFailed = testCases.some(
    (testCase) => judge(testCase.status ?? undefined, false).count === 'failed',
  );
  const outcome = finishedOutcome(
    {
      mode: 'project',
      projectId: 'proj-1',
      runId: 'run-1',
      branch: 'main',
      environment: 'staging',
      failOnFlaky,
    },
    { serviceStatus: anyFailed ? 'FAILED' : 'PASSED', testCases },
  );
  return { ...outcome, durationMs: 184_000, ...overrides };
}

export function cases(
  count: number,
  status: string | undefined,
  prefix = status ?? 'none',
): TestCaseResult[] {
  return Array.from({ length: count }, (_, i) => ({ title: `${prefix} ${i}`, status, durationMs: 1000 + i }));
}

/**
 * Points GITHUB_OUTPUT and GITHUB_STEP_SUMMARY at temp files. @actions/core remembers the summary
 * path once used, so call this once per test file and `reset()` between tests.
 */
export function runnerFiles() {
  const files = makeRunnerFiles();
  process.env.GITHUB_STEP_SUMMARY = files.summaryFile;
  process.env.GITHUB_OUTPUT = files.outputFile;
  const reset = () => {
    writeFileSync(files.summaryFile, '');
    writeFileSync(files.outputFile, '');
  };
  return {
    dir: files.dir,
    summaryFile: files.summaryFile,
    reset,
    readSummary: () => readSummary(files),
    readOutputs: () => readKeyValueFile(files.outputFile),
  };
}

/** Captures what is written to stdout (log lines and workflow commands) until `restore()`. */
export function captureStdout() {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  return {
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split(/\r?\n/)
        .filter((line) => line !== ''),
    restore: () => spy.mockRestore(),
  };
}

/** The report tests' set-up: the runner's files, emptied before each test, and stdout captured during it. */
export function reportSetUp() {
  const files = runnerFiles();
  let current: ReturnType<typeof captureStdout> | undefined;
  beforeEach(() => {
    files.reset();
    current = captureStdout();
  });
  afterEach(() => current?.restore());
  const stdout = { text: () => current?.text() ?? '', lines: () => current?.lines() ?? [] };
  return { files, stdout };
}

/** Hostile titles: markup, Markdown, table breakers, control characters, blank lines. */
export const HOSTILE_TITLES = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '</td></tr><tr><td>injected</td><td>x</td><td>y</td><td>z',
  '| a | b | c |',
  '`code` **bold** _it_ [link](https://example.com) ![img](https://example.com/x.png)',
  'line one\n\nline two <b>after a blank line</b>',
  'tab\tand\r\ncrlf',
  'nul\u0000 bell\u0007 esc\u001b[31m del\u007f nel\u0085 csi\u009b',
  'quotes " and \' and & and &amp; and \\ backslash',
  '',
  '   \n\t  ',
  'lone \ud800 surrogate',
  '<!-- comment --> <details open> <style>body{}</style>',
  `${'x'.repeat(298)}<>`,
];

/**
 * Three targets of one step, in order: a project run that passed (compared: 1 fixed), a suite run
 * that failed (compared: 1 new failure, 1 fixed), and a project run that never started (ERROR, no run id).
 */
export function threeTargets(): RunOutcome[] {
  const passed = makeOutcome(cases(3, 'PASSED'), {
    durationMs: 1_000,
    dashboardUrl: 'https://d.example/run-1',
  });
  const failing = makeOutcome([...cases(2, 'PASSED'), ...cases(1, 'FAILED')], {
    mode: 'suite',
    projectId: undefined,
    testSuiteId: 'suite-2',
    testSuiteName: 'Checkout',
    runId: 'run-2',
    durationMs: 5_000,
    message: 'Test suite run run-2 failed: 1 of 3 test cases failed.',
  });
  const errored = makeOutcome([], {
    projectId: 'proj-3',
    runId: undefined,
    status: 'ERROR',
    success: false,
    durationMs: undefined,
    message: 'Could not start the project run of proj-3: HTTP 503.',
  });
  return [
    judgedAgainst(passed, cases(1, 'FAILED', 'PASSED')),
    judgedAgainst(failing, [{ title: 'PASSED 1', status: 'FAILED' }]),
    errored,
  ];
}

/** The base branch's record of one earlier run of `then`, as its check run carries it. */
export function recordOfRun(then: TestCaseResult[], commit = 'b'.repeat(40)) {
  const testCases = then.map(({ title, status }) => ({ title, status: status ?? undefined }));
  const run = { commit, testCases };
  const context = { of: 'branch' as const, name: 'Test run', window: 20, quarantine: [] };
  return nextRecord(undefined, run, context) as NonNullable<ReturnType<typeof nextRecord>>;
}

/** `outcome` judged against `main`, whose one earlier result is `then`. */
export function judgedAgainst(
  outcome: RunOutcome,
  then: TestCaseResult[],
  failOn: 'any' | 'new' = 'any',
): RunOutcome {
  const baseline = { kind: 'found' as const, record: recordOfRun(then), against: 'main', base: 'main' };
  const settings = { failOn, history: 20, quarantine: [] };
  return judgeAgainst(outcome, baseline, settings, {
    of: 'pull-request',
    name: 'Test run',
    commit: 'c'.repeat(40),
    today: '2026-12-04',
  });
}
