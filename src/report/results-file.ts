import { hash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { clean } from '../runner/text.js';
import type { RunOutcome } from './outcome.js';
import { stepOutcome } from './targets.js';

/** When the name had to be changed to make a file name, a hash of it follows, so that two names never share a file. */
function fileName(prefix: string, name: string | undefined, unknown: string): string {
  if (name === undefined) return `${prefix}-${unknown}.json`;
  const safeName = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  if (safeName === name) return `${prefix}-${safeName}.json`;
  return `${prefix}-${safeName}-${hash('sha256', name, 'hex').slice(0, 10)}.json`;
}

/** One target's file, named after its run. */
export function resultsFileName(runId: string | undefined): string {
  return fileName('test-run', runId, 'unknown');
}

/** Several targets' file, named after the step (its id, or a name the runner made unique in the job). */
export function stepResultsFileName(step: string | undefined): string {
  return fileName('test-runs', step || undefined, 'step');
}

/** One target's document, an element of `runs` (the file's `schemaVersion` covers it). */
function runDocument(outcome: RunOutcome) {
  const slower = outcome.judgment?.slower && new Set(outcome.judgment.slower);
  // Cleaned here, whole, rather than in a JSON.stringify replacer, which would take stringify off its fast path.
  const text = (value?: string) =>
    value === undefined ? undefined : clean(value, Number.POSITIVE_INFINITY, 'keep');
  return {
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
      label: testCase.label?.kind ?? null,
      record: testCase.label?.record ?? null,
      typicalMs: testCase.typicalMs ?? null,
      slower: slower ? slower.has(testCase) : null,
    })),
  };
}

/**
 * The step's document, schemaVersion 1, for any number of targets: the step's outcome and each
 * target's document in `runs`, one at a time, so that 20 targets' documents are never all in memory.
 */
function* resultsText(outcomes: readonly RunOutcome[]): Generator<string> {
  const { status, success, counts, durationMs } = stepOutcome(outcomes);
  const step = JSON.stringify({ schemaVersion: 1, status, success, counts, durationMs, runs: [] });
  yield step.slice(0, -']}'.length);
  for (const [index, outcome] of outcomes.entries()) {
    yield `${index === 0 ? '' : ','}${JSON.stringify(runDocument(outcome))}`;
  }
  yield ']}';
}

export function resultsJson(outcomes: readonly RunOutcome[]): string {
  return [...resultsText(outcomes)].join('');
}

export async function writeResultsFile(
  outcomes: readonly RunOutcome[],
  resultsDir = os.tmpdir(),
  step?: string,
): Promise<string> {
  // Named after its run with one target, after the step with several; the same document either way.
  const name = outcomes.length === 1 ? resultsFileName(outcomes[0]?.runId) : stepResultsFileName(step);
  const file = path.join(resultsDir, name);
  await writeFileReplacing(file, resultsText(outcomes));
  return file;
}

/**
 * By way of a new temporary file beside it, renamed into place: a symbolic link at `file` (a checkout
 * may hold one) is replaced, never followed, and no reader sees half a report.
 */
export async function writeFileReplacing(file: string, text: string | Iterable<string>): Promise<void> {
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
