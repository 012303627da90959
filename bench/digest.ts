/**
 * The digest hidden in the pull request comment: its size, and the time to write it (hash every
 * title, sort, encode), to read it back from a comment body, and to compare a run with it, for
 * runs of 100, 10,000 and 50,000 test cases that did not pass (as many again passing).
 * `npx tsx bench/digest.ts` prints the figures; bench.ts calls measureDigest.
 */
import { pathToFileURL } from 'node:url';
import { DIGEST_MAX_CHARS, digestLine, digestOf, readDigest } from '../src/report/comment-digest.js';
import type { TestCase } from '../src/report/outcome.js';
import { compareRuns } from '../src/run/compare.js';
import { finishedOutcome } from '../src/run/conclude.js';
import { median, ms, table } from './stats.js';

const SIZES = [100, 10_000, 50_000];
const RUNS = 7;
const COMMIT = 'feedface'.padEnd(40, '0');

/** A run with `notPassed` test cases that did not pass (failing, a tenth flaky or skipped), and as many passing. */
function testCasesOf(notPassed: number): TestCase[] {
  const status = (i: number) => (i % 10 === 0 ? 'FLAKY' : i % 10 === 1 ? 'SKIPPED' : 'FAILED');
  const results = [
    ...Array.from({ length: notPassed }, (_, i) => ({
      title: `Checkout flow step ${i} applies the discount`,
      status: status(i),
    })),
    ...Array.from({ length: notPassed }, (_, i) => ({
      title: `Search page ${i} suggests products`,
      status: 'PASSED',
    })),
  ];
  const identity = { mode: 'project', projectId: 'p', runId: 'r', failOnFlaky: false } as const;
  return finishedOutcome(identity, { serviceStatus: 'FAILED', testCases: results }).testCases;
}

function timed(work: () => unknown): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}

export interface DigestFigures {
  notPassed: number;
  chars: number;
  held: number;
  partial: boolean;
  writeMs: number;
  readMs: number;
  compareMs: number;
}

export function measureDigest(): DigestFigures[] {
  return SIZES.map((notPassed) => {
    const testCases = testCasesOf(notPassed);
    const line = digestLine('digest', digestOf(testCases, COMMIT));
    const body = `<!-- test-run-action mode=project project=p -->\n### ❌ Test run failed\n${'- a listed title\n'.repeat(300)}${line}`;
    const read = readDigest(body, 'digest');
    if (!read) throw new Error('the digest did not read back');
    const held = [...read.counts.values()].reduce((sum, count) => sum + count, 0);
    return {
      notPassed,
      chars: line.length,
      held,
      partial: read.failingHeldUpTo !== undefined,
      writeMs: timed(() => digestLine('digest', digestOf(testCases, COMMIT))),
      readMs: timed(() => readDigest(body, 'digest')),
      compareMs: timed(() => compareRuns(testCases, { digest: read, against: 'the bench' })),
    };
  });
}

export function digestTable(figures: readonly DigestFigures[]): string {
  const rows = figures.map((figure) => [
    figure.notPassed.toLocaleString('en-US'),
    figure.chars.toLocaleString('en-US'),
    (figure.chars / Math.max(1, figure.held)).toFixed(2),
    `${figure.held.toLocaleString('en-US')}${figure.partial ? ' (partial)' : ''}`,
    ms(figure.writeMs, 2),
    ms(figure.readMs, 2),
    ms(figure.compareMs, 2),
  ]);
  return [
    table(['not passed', 'chars', 'chars/case', 'held', 'write', 'read', 'compare'], rows),
    '',
    `Cap: ${DIGEST_MAX_CHARS.toLocaleString('en-US')} characters a digest; the comment holds two (this run's and its baseline).`,
    `Medians of ${RUNS} runs after one to warm up; "compare" is a run of 2 × that many test cases against the digest.`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(digestTable(measureDigest()));
}
