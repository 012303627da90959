import { readFileSync } from 'node:fs';
import {
  DIGEST_MAX_CHARS,
  DIGEST_MAX_ENTRIES,
  digestLine,
  digestOf,
  readDigest,
  titleHash,
} from '../../src/report/digest.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { makeOutcome } from './helpers.js';

const testCases = (results: TestCaseResult[]) => makeOutcome(results).testCases;
const many = (count: number, status: string, prefix = status) =>
  Array.from({ length: count }, (_, i) => ({ title: `${prefix} ${i}`, status }));
const COMMIT = 'feedface'.padEnd(40, '0');

/** A check run's summary holding the given lines, as the action writes it. */
const body = (...lines: string[]) =>
  ['### ❌', '<!-- test-run-action check mode=project project=p of=branch -->', ...lines].join('\n');

describe('the digest hidden in the check run', () => {
  test('written and read back: failing titles only, duplicates counted', () => {
    const run = testCases([
      { title: 'A', status: 'FAILED' },
      { title: 'A', status: 'TIMEDOUT' },
      { title: 'B', status: 'FLAKY' },
      { title: 'C', status: 'SKIPPED' },
      { title: 'D', status: 'PASSED' },
    ]);
    const read = readDigest(body(digestLine(digestOf(run, COMMIT))));
    expect(read).toEqual({
      commit: COMMIT,
      counts: new Map([[titleHash('A'), 2]]),
      failing: 2,
      failingHeldUpTo: undefined,
      encoded: expect.any(String),
    });
  });

  test('a title failing more than 64 times takes several entries and reads back whole', () => {
    const read = readDigest(
      digestLine(
        digestOf(testCases(many(150, 'FAILED', 'same').map((c) => ({ ...c, title: 'same' }))), undefined),
      ),
    );
    expect(read?.counts.get(titleHash('same'))).toBe(150);
  });

  test('no digest, a cut-off one, a forged one or garbage: nothing to compare with, never a throw', () => {
    const line = digestLine(digestOf(testCases(many(40, 'FAILED')), undefined));
    const encoded = line.split(' ')[5] as string;
    const broken = [
      undefined,
      '',
      body('an earlier comment, from before the digest'),
      body(line.slice(0, 200)), // cut off: no closing -->
      body(line.replace(encoded, encoded.slice(0, -3))), // entries cut mid-way
      body(line.replace('failing=40', 'failing=3')), // holds more than it says there were
      body(line.replace(encoded, `${encoded.slice(0, -1)}!`)), // not base64url
      body(line.replace(encoded, `${encoded}A`)), // not canonical base64url
      body(line.replace(encoded, Buffer.alloc(7, 0xff).toString('base64url'))), // a count byte past 64
      body(
        line.replace(
          encoded,
          Buffer.concat([
            Buffer.from(encoded, 'base64url').subarray(7),
            Buffer.from(encoded, 'base64url').subarray(0, 7),
          ]).toString('base64url'),
        ),
      ), // out of order
      body(line.replace('digest v1', 'digest v2')),
      body(`<!-- test-run-action digest v1 failing=1 ${'A'.repeat(DIGEST_MAX_CHARS * 4)} -->`),
      '\u0000'.repeat(100_000),
    ];
    for (const text of broken)
      expect([text?.slice(0, 60), readDigest(text)]).toEqual([text?.slice(0, 60), undefined]);
  });

  test('a digest is found only on a line of its own', () => {
    const line = digestLine(digestOf(testCases(many(2, 'FAILED')), undefined));
    expect(readDigest(body(`a title quoting ${line}`))).toBeUndefined();
    expect(readDigest(body(line))?.failing).toBe(2);
  });

  test('20,000 failing test cases: the digest stays within its cap, holds the failing titles up to a hash, and says so', () => {
    const run = testCases([...many(20_000, 'FAILED'), ...many(50, 'SKIPPED')]);
    const line = digestLine(digestOf(run, COMMIT));
    expect(line.length).toBeLessThanOrEqual(DIGEST_MAX_CHARS);
    const read = readDigest(body(line));
    expect(read).toMatchObject({
      failing: 20_000,
      failingHeldUpTo: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    const held = [...(read?.counts.keys() ?? [])];
    expect(held.length).toBeGreaterThan(1_500);
    // every failing title at or below the bound is held; none above it
    for (const { title } of run.filter((testCase) => testCase.verdict.fails)) {
      const hash = titleHash(title);
      expect([title, read?.counts.has(hash)]).toEqual([
        title,
        read?.failingHeldUpTo !== undefined && hash <= read.failingHeldUpTo,
      ]);
    }
  });

  test('docs/pr-comment.md gives the cap as the code has it', () => {
    const page = readFileSync(new URL('../../docs/pr-comment.md', import.meta.url), 'utf8').replace(
      /\s+/g,
      ' ',
    );
    expect(page).toContain(
      `capped at ${DIGEST_MAX_CHARS.toLocaleString('en-US')} characters, ${DIGEST_MAX_ENTRIES.toLocaleString('en-US')} titles`,
    );
  });

  test('flaky and skipped test cases take no room: 5,000 of them beside 10 failing ones, and the digest is whole', () => {
    const run = testCases([...many(10, 'FAILED'), ...many(5_000, 'FLAKY'), ...many(5_000, 'SKIPPED')]);
    const line = digestLine(digestOf(run, undefined));
    expect(line.length).toBeLessThan(200);
    expect(readDigest(line)).toMatchObject({ failing: 10, failingHeldUpTo: undefined });
  });

  test('with fail-on-flaky, a flaky test case fails the step and is written as failing', () => {
    const flaky = makeOutcome([{ title: 'B', status: 'FLAKY' }], { failOnFlaky: true }).testCases;
    expect(readDigest(digestLine(digestOf(flaky, undefined)))?.counts).toEqual(
      new Map([[titleHash('B'), 1]]),
    );
  });
});
