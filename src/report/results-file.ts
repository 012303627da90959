import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type RunOutcome, verdictOf } from '../outcome.js';
import { redact } from '../secrets.js';

export const RESULTS_SCHEMA_VERSION = 1;

export function resultsFileName(runId: string | undefined): string {
  const safe = (runId ?? '').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return `test-run-${safe || 'unknown'}.json`;
}

/** The results file's content: the normalised run and every test case, titles whole. */
export function resultsJson(outcome: RunOutcome): string {
  const document = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    mode: outcome.mode,
    status: outcome.status,
    success: outcome.success,
    runId: outcome.runId,
    projectId: outcome.projectId,
    testSuiteId: outcome.testSuiteId,
    testSuiteName: outcome.testSuiteName,
    branch: outcome.branch,
    environment: outcome.environment,
    startedAt: outcome.startedAt,
    finishedAt: outcome.finishedAt,
    durationMs: outcome.durationMs,
    counts: outcome.counts,
    message: outcome.message,
    notes: outcome.notes,
    testCases: outcome.testCases.map((testCase) => ({
      title: testCase.title,
      status: testCase.status ?? null,
      verdict: verdictOf(testCase.status),
      durationMs: testCase.durationMs,
    })),
  };
  // Every string, from the service or not, is redacted; undefined fields are left out.
  return JSON.stringify(document, (_key, value: unknown) =>
    typeof value === 'string' ? redact(value) : value,
  );
}

/** Writes `test-run-<run id>.json` under `resultsDir` and returns its path. */
export async function writeResultsFile(outcome: RunOutcome, resultsDir: string): Promise<string> {
  const file = path.join(resultsDir, resultsFileName(outcome.runId));
  await mkdir(resultsDir, { recursive: true });
  await writeFile(file, resultsJson(outcome), 'utf8');
  return file;
}
