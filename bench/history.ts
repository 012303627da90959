/**
 * The history's cost (round 6): 10,000 test cases of which 1,000 flaked in a window of 20, the step's
 * work after the last answer (the verdicts, the judgement against the base branch, the check run's
 * output, the summary, the comment, the results file) in this process, with `history: 20` beside
 * `history: 0`, paired round by round; and the check run's output sizes against GitHub's limits.
 */
import { readWorkflowRun } from '../src/inputs/workflow-run.js';
import { completedCheckRun } from '../src/report/check-run.js';
import { digestOf } from '../src/report/digest.js';
import { extendHistory, type History } from '../src/report/history.js';
import { renderStepComment } from '../src/report/pr-comment.js';
import { resultsJson } from '../src/report/results-file.js';
import { renderSummary } from '../src/report/summary.js';
import type { Baseline } from '../src/run/baseline.js';
import { judgeAgainst } from '../src/run/compare.js';
import { finishedOutcome } from '../src/run/conclude.js';
import type { TestCaseResult } from '../src/service/run-driver.js';
import { makeTestCases } from './cases.js';
import { median } from './stats.js';

const CASES = 10_000;
const FLAKY = 1_000;
const WINDOW = 20;
const COMMIT = 'c0ffee'.padEnd(40, '0');

/** main's last 20 results: the first 1,000 titles failed now and then (each in 1 to 5 of them). */
function baseHistory(titles: string[]): History {
  let history: History | undefined;
  for (let result = 0; result < WINDOW; result++) {
    const testCases = titles.map((title, i) => {
      const failed = i < FLAKY && (i + result) % (2 + (i % 9)) === 0;
      return { title, verdict: { count: failed ? 'failed' : 'passed', fails: failed } };
    });
    history = extendHistory(history, { commit: result.toString(16).padStart(7, 'a'), testCases }, WINDOW);
  }
  return history as History;
}

export function benchHistory(print: (text?: string) => void, rounds = 31): void {
  const results = makeTestCases(CASES) as TestCaseResult[];
  // This run: 1,000 of them fail (the flaky ones), the rest pass.
  const thisRun = results.map((testCase, i) => ({ ...testCase, status: i < FLAKY ? 'FAILED' : 'PASSED' }));
  const titles = thisRun.map(({ title }) => title);
  const history = baseHistory(titles);
  const identity = {
    mode: 'project' as const,
    projectId: 'p',
    runId: 'r',
    branch: 'main',
    failOnFlaky: false,
  };
  const digest = digestOf(
    finishedOutcome(identity, { serviceStatus: 'FAILED', testCases: thisRun.slice(0, 100) }).testCases,
    undefined,
  );
  const workflow = readWorkflowRun({
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SHA: COMMIT,
    GITHUB_REPOSITORY: 'o/r',
  });
  const work = (window: number) => {
    const started = performance.now();
    const outcome = finishedOutcome(identity, { serviceStatus: 'FAILED', testCases: thisRun });
    const baseline: Baseline = { kind: 'found', digest, against: 'main', base: 'main', history };
    const judged = judgeAgainst(outcome, baseline, {
      failOn: 'new',
      history: window,
      quarantine: [],
      workflow,
      pullRequestNumber: undefined,
    });
    const output = completedCheckRun(judged, { owner: 'branch', commit: COMMIT });
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
  const on = median(withHistory);
  const off = median(without);
  print(
    `${CASES.toLocaleString('en-US')} test cases, ${FLAKY.toLocaleString('en-US')} flaky in a window of ${WINDOW}, ${rounds} paired rounds in this process:`,
  );
  print(
    `- the work after the last answer: history ${WINDOW} ${on.toFixed(1)} ms, history 0 ${off.toFixed(1)} ms (median), ${(((on - off) / off) * 100).toFixed(1)} % more (target: within 10 %)`,
  );
  print(
    `- the check run's text (the history): ${text.length.toLocaleString('en-US')} characters, ${Buffer.byteLength(text).toLocaleString('en-US')} bytes (GitHub's limit: 65,535 of each); partial: ${/partial=0\n/.test(text) ? 'no' : 'yes'}`,
  );
  print(
    `- the check run's summary: ${summary.length.toLocaleString('en-US')} characters, ${Buffer.byteLength(summary).toLocaleString('en-US')} bytes (limit 65,535 of each)`,
  );
}
