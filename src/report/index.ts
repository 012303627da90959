import type { Settings } from '../inputs/settings.js';
import { info, reason, warning } from '../runner/log.js';
import { setOutput, setOutputLines } from '../runner/step.js';
import { line, safe } from '../runner/text.js';
import { UNTITLED } from './escape.js';
import { countsLine } from './format.js';
import type { RunOutcome } from './outcome.js';
import { writeFileReplacing, writeResultsFile } from './results-file.js';
import { writeSummary } from './summary.js';
import { runsEntry, type StepOutcome, stepOutcome, targetName } from './targets.js';

/** `failures`: why the step fails; empty when it passes. */
type ReportFiles = { resultsFile?: string; junitFile?: string; failures: string[] };

/** For the step: with several targets, shared by them in turn. */
const MAX_FAILED_LINES = 50;

/** The notes were logged when they happened. With several targets, each one's lines follow its name. */
function logOutcomes(outcomes: readonly RunOutcome[]): void {
  let left = MAX_FAILED_LINES;
  for (const outcome of outcomes.filter(({ status }) => status !== 'STARTED')) {
    const run = outcome.runId === undefined ? '' : `, run ${outcome.runId}`;
    const which = outcomes.length > 1 ? `${targetName(outcome)}${run}: ` : '';
    info(line`${which}${countsLine(outcome.counts)}`);
    const failing = outcome.reportOrder.filter((testCase) => testCase.verdict.fails);
    // Escaped: terser keeps a tagged template's text as written, and the bundle stays ASCII.
    for (const testCase of failing.slice(0, left)) {
      info(line`  \u2717 ${safe(testCase.verdict.label, 60)}  ${safe(testCase.title, 200) || UNTITLED}`);
    }
    if (failing.length > left) info(line`  \u2026 and ${failing.length - left} more`);
    left = Math.max(0, left - failing.length);
  }
}

/** Not the file paths, not `success` (set last), and not `run-id` (set as each run starts). */
function setOutcomeOutputs(outcomes: readonly RunOutcome[], step: StepOutcome): void {
  // One line per target, an empty one where a target has none.
  const perTarget = (key: 'dashboardUrl' | 'checkRunUrl') => outcomes.map((outcome) => outcome[key] ?? '');
  setOutput('status', step.status);
  setOutputLines('dashboard-url', perTarget('dashboardUrl'));
  setOutput('runs', JSON.stringify(outcomes.map(runsEntry)));
  if (step.status === 'STARTED') return;
  setOutputLines('check-run-url', perTarget('checkRunUrl'));
  // The outputs are named as the counts are: total, passed, failed, flaky, skipped.
  for (const [name, count] of Object.entries(step.counts)) setOutput(name, String(count));
  if (step.durationMs !== undefined) setOutput('duration-ms', String(Math.round(step.durationMs)));
  const sum = (counts: number[]) => String(counts.reduce((total, count) => total + count, 0));
  // Sums over the targets that were compared; empty when none was, so that a workflow can tell that from zero.
  const compared = outcomes.flatMap(({ judgment }) => (judgment?.against ? [judgment] : []));
  const sumOf = (key: 'newFailures' | 'fixed' | 'flaky') =>
    compared.length === 0 ? '' : sum(compared.map((judgment) => judgment[key].length));
  setOutput('new-failures', sumOf('newFailures'));
  setOutput('fixed', sumOf('fixed'));
  setOutput('flaky-failures', sumOf('flaky'));
  setOutput('quarantined', sum(outcomes.map(({ judgment }) => judgment?.quarantined.length ?? 0)));
  // Empty where nothing is known to be slower or not (see `slowdown`), so a workflow can tell that from 0.
  const slower = outcomes.flatMap(({ judgment }) => (judgment?.slower ? [judgment.slower.length] : []));
  setOutput('slower', slower.length === 0 ? '' : sum(slower));
}

/**
 * The reports of the step's targets, in the targets' order: one summary, one JUnit report, one
 * results file. A JUnit report that was asked for and cannot be written fails the step; the other
 * files only warn.
 */
export async function writeReports(
  outcomes: readonly RunOutcome[],
  settings: Pick<Settings, 'summary' | 'resultsDir'> & Partial<Pick<Settings, 'junitPath' | 'workflow'>>,
): Promise<ReportFiles> {
  const step = stepOutcome(outcomes);
  setOutcomeOutputs(outcomes, step);
  const files: ReportFiles = { failures: [] };
  for (const outcome of outcomes) {
    if (!outcome.success) files.failures.push(outcome.message ?? `The ${outcome.mode} run failed.`);
  }
  const finished = step.status !== 'STARTED';
  if (finished) {
    logOutcomes(outcomes);
    await orWarn('the results file', async () => {
      files.resultsFile = await writeResultsFile(outcomes, settings.resultsDir, settings.workflow?.stepId);
      setOutput('results-file', files.resultsFile);
    });
  }
  if (finished && settings.junitPath !== undefined) {
    try {
      // Loaded only when asked for, to keep the action's start-up small.
      const { junitText } = await import('./junit.js');
      await writeFileReplacing(settings.junitPath, junitText(outcomes));
      files.junitFile = settings.junitPath;
      setOutput('junit-file', files.junitFile);
    } catch (error) {
      files.failures.push(`Could not write the JUnit report to ${settings.junitPath}: ${reason(error)}`);
    }
  }
  if (settings.summary) {
    await orWarn('the job summary', () => writeSummary(outcomes, files.junitFile !== undefined));
  }
  return files;
}

async function orWarn(what: string, write: () => Promise<void>): Promise<void> {
  await write().catch((error: unknown) => warning(line`Could not write ${what}: ${reason(error)}`));
}
