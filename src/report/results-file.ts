import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { clean } from '../runner/text.js';
import type { RunOutcome } from './outcome.js';

/** When the id had to be changed to make a file name, a hash of it follows, so that two ids never share a file. */
export function resultsFileName(runId: string | undefined): string {
  if (runId === undefined) return 'test-run-unknown.json';
  const name = runId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  if (name === runId) return `test-run-${name}.json`;
  const hash = createHash('sha256').update(runId).digest('hex').slice(0, 10);
  return `test-run-${name}-${hash}.json`;
}

export function resultsJson(outcome: RunOutcome): string {
  // Cleaned here, whole, rather than in a JSON.stringify replacer, which would take stringify off its fast path.
  const text = (value?: string) =>
    value === undefined ? undefined : clean(value, Number.POSITIVE_INFINITY, 'keep');
  const document = {
    schemaVersion: 1,
    mode: outcome.mode,
    status: outcome.status,
    success: outcome.success,
    runId: text(outcome.runId),
    projectId: text(outcome.projectId),
    testSuiteId: text(outcome.testSuiteId),
    testSuiteName: text(outcome.testSuiteName),
    branch: text(outcome.branch),
    environment: text(outcome.environment),
    startedAt: text(outcome.startedAt),
    finishedAt: text(outcome.finishedAt),
    durationMs: outcome.durationMs,
    counts: outcome.counts,
    message: text(outcome.message),
    notes: outcome.notes.map((note) => text(note)),
    testCases: outcome.testCases.map((testCase) => ({
      title: text(testCase.title),
      status: text(testCase.status) ?? null,
      verdict: testCase.verdict.verdict,
      durationMs: testCase.durationMs,
      testRunId: text(testCase.testRunId),
      testId: text(testCase.testId),
    })),
  };
  return JSON.stringify(document);
}

export async function writeResultsFile(outcome: RunOutcome, resultsDir = os.tmpdir()): Promise<string> {
  const file = path.join(resultsDir, resultsFileName(outcome.runId));
  await writeFileReplacing(file, resultsJson(outcome));
  return file;
}

/**
 * By way of a new temporary file beside it, renamed into place: a symbolic link at `file` (a checkout
 * may hold one) is replaced, never followed, and no reader sees half a report.
 */
export async function writeFileReplacing(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // 'wx': a file (or link) already at the temporary name is an error, not a target.
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
