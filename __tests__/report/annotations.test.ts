import { annotate } from '../../src/report/annotations.js';
import { beginStep, fail, warning } from '../../src/runner/log.js';
import { line } from '../../src/runner/text.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { captureStdout, cases, makeOutcome } from './helpers.js';

/**
 * The annotations of an outcome, after the step's own: by default its failure message when it
 * fails, else `others` errors and warnings.
 */
function annotations(
  testCases: TestCaseResult[],
  overrides: Parameters<typeof makeOutcome>[1] = {},
  others?: { errors: number; warnings: number },
): string[] {
  const stdout = captureStdout();
  const exitCode = process.exitCode;
  try {
    beginStep();
    const outcome = makeOutcome(testCases, overrides);
    const own = others ?? { errors: outcome.success ? 0 : 1, warnings: 0 };
    for (let i = 0; i < own.errors; i++) fail(line`the step's own failure`);
    for (let i = 0; i < own.warnings; i++) warning(line`the step's own warning`);
    annotate([outcome], true);
  } finally {
    stdout.restore();
    process.exitCode = exitCode;
  }
  return stdout.lines().filter((text) => text.startsWith('::') && !text.includes("the step's own"));
}

const kind = (line: string) => /^::(\w+)/.exec(line)?.[1];

describe('annotations', () => {
  it('12 failures: 9 errors in report order, then one notice for the 3 more', () => {
    const lines = annotations([...cases(4, 'TIMEDOUT'), ...cases(8, 'FAILED'), ...cases(5, 'PASSED')]);
    expect(lines.map(kind)).toEqual([...Array(9).fill('error'), 'notice']);
    expect(lines[0]).toBe('::error title=FAILED 0::Test case FAILED in run run-1');
    expect(lines[8]).toBe('::error title=TIMEDOUT 0::Test case TIMEDOUT in run run-1');
    expect(lines[9]).toBe(
      '::notice title=12 test cases failed::3 more test cases failed; the job summary lists them.',
    );
  });

  it("the step's other errors and warnings come out of the ten", () => {
    const errors = annotations(cases(12, 'FAILED'), {}, { errors: 3, warnings: 0 });
    expect(errors.map(kind)).toEqual([...Array(7).fill('error'), 'notice']);
    expect(errors[7]).toContain('5 more test cases failed');
    const warnings = annotations(cases(12, 'FLAKY'), {}, { errors: 0, warnings: 4 });
    expect(warnings.map(kind)).toEqual([...Array(6).fill('warning'), 'notice']);
    expect(warnings[6]).toContain('6 more test cases are flaky');
  });

  it('9 failures: no notice', () => {
    expect(annotations(cases(9, 'FAILED')).map(kind)).toEqual(Array(9).fill('error'));
  });

  it('names unfinished test cases as such', () => {
    const [annotation] = annotations([{ title: 'a', status: 'RUNNING' }]);
    expect(annotation).toBe('::error title=a::Test case did not finish (RUNNING) in run run-1');
  });

  it('3 flaky: 3 warnings; with fail-on-flaky, 3 errors', () => {
    expect(annotations(cases(3, 'FLAKY')).map(kind)).toEqual(['warning', 'warning', 'warning']);
    expect(annotations(cases(3, 'FLAKY'), { failOnFlaky: true, success: false }).map(kind)).toEqual([
      'error',
      'error',
      'error',
    ]);
  });

  it('15 flaky: 10 warnings and one notice for the 5 more', () => {
    const lines = annotations(cases(15, 'FLAKY'));
    expect(lines.map(kind)).toEqual([...Array(10).fill('warning'), 'notice']);
    expect(lines[10]).toContain('5 more test cases are flaky');
  });

  it('cuts titles at 200 characters and keeps them on one line, line breaks shown as escapes', () => {
    const [annotation] = annotations([{ title: `a\nb ${'x'.repeat(300)}`, status: 'FAILED' }]);
    const title = /title=([^:]*)::/.exec(annotation as string)?.[1];
    expect(title).toBe(`a\\nb ${'x'.repeat(194)}…`);
  });

  it('escapes command syntax in titles', () => {
    const [annotation] = annotations([{ title: 'a::b, c%', status: 'FAILED' }]);
    expect(annotation).toBe('::error title=a%3A%3Ab%2C c%25::Test case FAILED in run run-1');
  });

  it('an eleventh warning of the step is a line of the log, not an annotation GitHub would not show', () => {
    const stdout = captureStdout();
    try {
      beginStep();
      for (let i = 1; i <= 11; i++) warning(line`warning ${i}`);
    } finally {
      stdout.restore();
    }
    expect(stdout.lines().filter((text) => text.startsWith('::warning'))).toHaveLength(10);
    expect(stdout.lines()).toContain('Warning: warning 11');
  });

  it.each([false, true])(
    'warns when a passed run reported no test case (fail-on-flaky %s)',
    (failOnFlaky) => {
      expect(annotations([], { status: 'PASSED', success: true, failOnFlaky })).toEqual([
        '::warning::The run passed but reported no test case.',
      ]);
    },
  );

  it('none for a run started without waiting', () => {
    expect(annotations(cases(3, 'FAILED'), { status: 'STARTED' })).toEqual([]);
  });
});
