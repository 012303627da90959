/**
 * The record's cost (round 7): 10,000 test cases with durations, 1,000 of which flaked in a window
 * of 20; the step's work after the last answer (the verdicts, the judgment against the base
 * branch's record, the next record, the check run's output, the summary, the comment, the results
 * file) in this process, with `history: 20` beside `history: 0`, paired round by round; and the
 * check run's output sizes against GitHub's limits, with how many of the flaky rows it holds.
 */
import { completedCheckRun } from '../src/report/check-run.js';
import { renderStepComment } from '../src/report/pr-comment.js';
import { keysOf, nextRecord, type ResultRecord, readRecord } from '../src/report/record.js';
import { resultsJson } from '../src/report/results-file.js';
import { renderSummary } from '../src/report/summary.js';
import type { Baseline } from '../src/run/baseline.js';
import { finishedOutcome } from '../src/run/conclude.js';
import { judgeAgainst } from '../src/run/judgment.js';
import type { TestCaseResult } from '../src/service/run-driver.js';
import { makeTestCases } from './cases.js';
import { median } from './stats.js';

const CASES = 10_000;
const FLAKY = 1_000;
const WINDOW = 20;
const COMMIT = 'c0ffee'.padEnd(40, '0');
const NAME = 'Test run: project p';

/** main's last 20 results: the first 1,000 titles failed now and then (each in 1 to 5 of them). */
function baseRecord(results: TestCaseResult[]): ResultRecord {
  let record: ResultRecord | undefined;
  for (let result = 0; result < WINDOW; result++) {
    const testCases = results.map((testCase, i) => {
      const failed = i < FLAKY && (i + result) % (2 + (i % 9)) === 0;
      return {
        title: testCase.title,
        status: failed ? 'FAILED' : 'PASSED',
        durationMs: 1_000 + (i % 97) * 100,
      };
    });
    const run = { commit: result.toString(16).padStart(40, 'a'), testCases, durationMs: 600_000 };
    record = nextRecord(record, run, { of: 'branch', name: NAME, window: WINDOW, quarantine: [] });
  }
  return record as ResultRecord;
}

export function benchHistory(print: (text?: string) => void, rounds = 31): void {
  const results = makeTestCases(CASES) as TestCaseResult[];
  // This run: 1,000 of them fail (the flaky ones), the rest pass.
  const thisRun = results.map((testCase, i) => ({ ...testCase, status: i < FLAKY ? 'FAILED' : 'PASSED' }));
  const record = baseRecord(results);
  const identity = {
    mode: 'project' as const,
    projectId: 'p',
    runId: 'r',
    branch: 'main',
    failOnFlaky: false,
  };
  const work = (window: number) => {
    const started = performance.now();
    const outcome = finishedOutcome(identity, { serviceStatus: 'FAILED', testCases: thisRun });
    const baseline: Baseline = { kind: 'found', record, against: 'main', base: 'main' };
    const settings = {
      failOn: 'new' as const,
      history: window,
      quarantine: [],
      slowdown: { factor: 1.5, minMs: 5_000 },
    };
    const judged = judgeAgainst(outcome, baseline, settings, {
      of: 'branch',
      commit: COMMIT,
      name: NAME,
      today: '2026-12-04',
    });
    const output = completedCheckRun(judged);
    renderSummary([judged], { junitWritten: false });
    renderStepComment([judged], { headSha: COMMIT });
    resultsJson([judged]);
    return { ms: performance.now() - started, output };
  };
  const quiet = process.stdout.write.bind(process.stdout);
  // judgeAgainst logs its lines: kept out of the figures.
  process.stdout.write = (() => true) as typeof process.stdout.write;
  const withHistory: number[] = [];
  const without: number[] = [];
  let output: ReturnType<typeof work>['output'] | undefined;
  try {
    for (let round = 0; round < rounds; round++) {
      const on = work(WINDOW);
      output = on.output;
      withHistory.push(on.ms);
      without.push(work(0).ms);
    }
  } finally {
    process.stdout.write = quiet;
  }
  const text = output?.text ?? '';
  const summary = output?.summary ?? '';
  const read = readRecord(text);
  const carried = read.kind === 'record' ? read.record : undefined;
  // By key, as the record has them: a title listed twice has a key for each.
  const cases = thisRun.map(({ title, status }) => ({ title, status }));
  const keys = keysOf(cases);
  const flakyKeys = new Set(cases.slice(0, FLAKY).map((testCase) => keys.get(testCase)));
  const flakyRows = [...(carried?.rows.keys() ?? [])].filter((key) => flakyKeys.has(key)).length;
  const on = median(withHistory);
  const off = median(without);
  print(
    `${CASES.toLocaleString('en-US')} test cases with durations, ${FLAKY.toLocaleString('en-US')} flaky in a window of ${WINDOW}, ${rounds} paired rounds in this process:`,
  );
  print(
    `- the work after the last answer: history ${WINDOW} ${on.toFixed(1)} ms, history 0 ${off.toFixed(1)} ms (median), ${(((on - off) / off) * 100).toFixed(1)} % more (target: within 15 %)`,
  );
  print(
    `- the check run's text (the record): ${text.length.toLocaleString('en-US')} characters, ${Buffer.byteLength(text).toLocaleString('en-US')} bytes (GitHub's limit: 65,535 of each); ${carried?.columns.length ?? 0} columns, ${flakyRows.toLocaleString('en-US')} of the ${FLAKY.toLocaleString('en-US')} flaky rows, ${carried?.durations.size.toLocaleString('en-US') ?? 0} test cases' durations, ${carried?.cut ?? '?'} columns missing rows`,
  );
  print(
    `- the check run's summary: ${summary.length.toLocaleString('en-US')} characters, ${Buffer.byteLength(summary).toLocaleString('en-US')} bytes (limit 65,535 of each)`,
  );
}
