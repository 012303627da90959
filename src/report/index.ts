import * as core from '@actions/core';
import type { RunOutcome } from '../outcome.js';
import { annotate } from './annotations.js';
import { oneLine } from './escape.js';
import { logOutcome } from './log.js';
import { setOutcomeOutputs } from './outputs.js';
import { writeResultsFile } from './results-file.js';
import { writeSummary } from './summary.js';

export interface ReportSettings {
  /** Write the job summary. */
  summary: boolean;
  /** Absolute path for the JUnit XML report, when requested. */
  junitPath?: string;
  /** Directory for the results file (RUNNER_TEMP). */
  resultsDir: string;
}

export interface ReportFiles {
  resultsFile?: string;
  junitFile?: string;
  /** Why a JUnit report that was asked for could not be written: the caller fails the step. */
  junitError?: string;
}

function reason(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

/**
 * Sets the outputs (except run-id, which the caller sets as soon as the run starts), logs the
 * counts and each failed test case, emits annotations, writes the results file, the JUnit report
 * (if junitPath) and the summary (if enabled).
 *
 * A results file or summary that cannot be written only warns; a JUnit report that was asked for
 * and cannot be written is returned as `junitError`, for the caller to fail the step with.
 */
export async function writeReports(outcome: RunOutcome, settings: ReportSettings): Promise<ReportFiles> {
  setOutcomeOutputs(outcome);
  const files: ReportFiles = {};

  if (outcome.status !== 'STARTED') {
    logOutcome(outcome);
    annotate(outcome, settings.summary);
    try {
      files.resultsFile = await writeResultsFile(outcome, settings.resultsDir);
      core.setOutput('results-file', files.resultsFile);
    } catch (error) {
      core.warning(`Could not write the results file: ${reason(error)}`);
    }
  }

  if (outcome.status !== 'STARTED' && settings.junitPath !== undefined) {
    try {
      // Loaded only when asked for, to keep the action's start-up small.
      const { writeJunit } = await import('./junit.js');
      files.junitFile = await writeJunit(outcome, settings.junitPath);
      core.setOutput('junit-file', files.junitFile);
    } catch (error) {
      files.junitError = `Could not write the JUnit report to ${oneLine(settings.junitPath)}: ${reason(error)}`;
    }
  }

  if (settings.summary) {
    try {
      await writeSummary(outcome, files.junitFile !== undefined);
    } catch (error) {
      core.warning(`Could not write the job summary: ${reason(error)}`);
    }
  }

  return files;
}
