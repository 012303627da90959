import type { Settings } from '../inputs/settings.js';
import { info, warning } from '../runner/log.js';
import { setOutput } from '../runner/step.js';
import { line, safe } from '../runner/text.js';
import { UNTITLED } from './escape.js';
import { countsLine } from './format.js';
import type { RunOutcome } from './outcome.js';
import { writeFileReplacing, writeResultsFile } from './results-file.js';
import { writeSummary } from './summary.js';

/** `failures`: why the step fails; empty when it passes. */
type ReportFiles = { resultsFile?: string; junitFile?: string; failures: string[] };

const MAX_FAILED_LINES = 50;

/** The notes were logged when they happened. */
function logOutcome(outcome: RunOutcome): void {
  info(line`${countsLine(outcome.counts)}`);
  const failing = outcome.reportOrder.filter((testCase) => testCase.verdict.fails);
  // Escaped: terser keeps a tagged template's text as written, and the bundle stays ASCII.
  for (const testCase of failing.slice(0, MAX_FAILED_LINES)) {
    info(line`  \u2717 ${safe(testCase.verdict.label, 60)}  ${safe(testCase.title, 200) || UNTITLED}`);
  }
  if (failing.length > MAX_FAILED_LINES) info(line`  \u2026 and ${failing.length - MAX_FAILED_LINES} more`);
}

/** Not `run-id` (set when the run starts), the file paths, and `success` (set last). */
function setOutcomeOutputs(outcome: RunOutcome): void {
  setOutput('status', outcome.status);
  setOutput('dashboard-url', outcome.dashboardUrl ?? '');
  if (outcome.status === 'STARTED') return;
  // The outputs are named as the counts are: total, passed, failed, flaky, skipped.
  for (const [name, count] of Object.entries(outcome.counts)) setOutput(name, String(count));
  if (outcome.durationMs !== undefined) setOutput('duration-ms', String(Math.round(outcome.durationMs)));
  // Empty when there was nothing to compare with, so that a workflow can tell that from zero.
  setOutput('new-failures', outcome.comparison ? String(outcome.comparison.newFailures.length) : '');
  setOutput('fixed', outcome.comparison ? String(outcome.comparison.fixed.length) : '');
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A JUnit report that was asked for and cannot be written fails the step; the other files only warn. */
export async function writeReports(
  outcome: RunOutcome,
  settings: Pick<Settings, 'summary' | 'resultsDir'> & Partial<Pick<Settings, 'junitPath'>>,
): Promise<ReportFiles> {
  setOutcomeOutputs(outcome);
  const files: ReportFiles = { failures: [] };
  if (!outcome.success) files.failures.push(outcome.message ?? `The ${outcome.mode} run failed.`);
  if (outcome.status !== 'STARTED') {
    logOutcome(outcome);
    await orWarn('the results file', async () => {
      files.resultsFile = await writeResultsFile(outcome, settings.resultsDir);
      setOutput('results-file', files.resultsFile);
    });
  }
  if (outcome.status !== 'STARTED' && settings.junitPath !== undefined) {
    try {
      // Loaded only when asked for, to keep the action's start-up small.
      const { junitXml } = await import('./junit.js');
      await writeFileReplacing(settings.junitPath, junitXml(outcome));
      files.junitFile = settings.junitPath;
      setOutput('junit-file', files.junitFile);
    } catch (error) {
      files.failures.push(`Could not write the JUnit report to ${settings.junitPath}: ${reason(error)}`);
    }
  }
  if (settings.summary) {
    await orWarn('the job summary', () => writeSummary(outcome, files.junitFile !== undefined));
  }
  return files;
}

async function orWarn(what: string, write: () => Promise<void>): Promise<void> {
  await write().catch((error: unknown) => warning(line`Could not write ${what}: ${reason(error)}`));
}
