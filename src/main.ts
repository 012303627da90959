import * as core from '@actions/core';
import { InputError } from './inputs/input-error.js';
import { redact } from './inputs/secrets.js';
import { type InputReader, readSettings } from './inputs/settings.js';
import { annotate } from './report/annotations.js';
import { writeReports } from './report/index.js';
import { runToOutcome } from './run/index.js';
import { keepPullRequestComment } from './run/pr-comment.js';
import { JobCancellation, onTermination } from './run/signals.js';
import { STATE } from './run/state.js';
import { type Clock, systemClock } from './service/clock.js';

interface RunDependencies {
  clock?: Clock;
  input?: InputReader;
  env?: NodeJS.ProcessEnv;
  /** Replaces the process signal handlers, for tests that cancel in-process. */
  cancelSignal?: AbortSignal;
}

/** The main step: read the inputs, run, report. Every failure ends in core.setFailed, never a throw. */
export async function run(dependencies: RunDependencies = {}): Promise<void> {
  const clock = dependencies.clock ?? systemClock;
  core.saveState(STATE.isPost, 'true');
  const job = new JobCancellation(clock);
  const stopListening = dependencies.cancelSignal
    ? linkSignal(dependencies.cancelSignal, () => job.cancel())
    : onTermination(() => job.cancel());
  // Why the step fails; empty when it passes. `success` is written from this alone.
  const failures: string[] = [];
  try {
    const settings = await readSettings(dependencies.input, dependencies.env);
    const outcome = await runToOutcome(settings, clock, job);
    for (const note of outcome.notes) core.info(note);
    const reports = await writeReports(outcome, {
      summary: settings.summary,
      junitPath: settings.junitPath,
      resultsDir: settings.resultsDir,
    });
    failures.push(...reports.failures);
    const comment = await keepPullRequestComment(outcome, settings, failures.length > 0, clock, job.signal);
    core.setOutput('comment-url', comment.url ?? '');
    // Last, so that the step's other warnings and failures count against GitHub's ten of each.
    const warnings = reports.warnings + (comment.warned ? 1 : 0);
    annotate(outcome, settings.summary, { errors: failures.length, warnings });
  } catch (error) {
    // No outcome was learned: the inputs are wrong, or something unexpected broke.
    core.setOutput('status', 'ERROR');
    if (error instanceof InputError) {
      failures.push(error.message);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      core.debug(error instanceof Error && error.stack ? redact(error.stack) : '');
      failures.push(`Unexpected error: ${redact(message)}`);
    }
  } finally {
    stopListening();
    job.dispose();
  }
  core.setOutput('success', String(failures.length === 0));
  // The service's error texts may echo a secret: the runner masks the log, and so do we.
  for (const failure of failures) core.setFailed(redact(failure));
}

function linkSignal(source: AbortSignal, abort: () => void): () => void {
  if (source.aborted) abort();
  source.addEventListener('abort', abort, { once: true });
  return () => source.removeEventListener('abort', abort);
}
