import { readFileSync } from 'node:fs';
import {
  baselineIn,
  DIGEST_MAX_CHARS,
  DIGEST_MAX_ENTRIES,
  digestLine,
  digestOf,
  readDigest,
  titleHash,
} from '../../src/report/comment-digest.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { makeOutcome } from './helpers.js';

const testCases = (results: TestCaseResult[]) => makeOutcome(results).testCases;
const many = (count: number, status: string, prefix = status) =>
  Array.from({ length: count }, (_, i) => ({ title: `${prefix} ${i}`, status }));
const COMMIT = 'feedface'.padEnd(40, '0');

/** A comment body holding the given lines, as the action writes it. */
const body = (...lines: string[]) =>
  ['<!-- test-run-action mode=project project=p -->', '### ❌', ...lines].join('\n');

describe('the digest hidden in the comment', () => {
  test('written and read back: failing titles only, duplicates counted', () => {
    const run = testCases([
      { title: 'A', status: 'FAILED' },
      { title: 'A', status: 'TIMEDOUT' },
      { title: 'B', status: 'FLAKY' },
      { title: 'C', status: 'SKIPPED' },
      { title: 'D', status: 'PASSED' },
    ]);
    const read = readDigest(body(digestLine('digest', digestOf(run, COMMIT))), 'digest');
    expect(read).toEqual({
      commit: COMMIT,
      counts: new Map([[titleHash('A'), 2]]),
      failing: 2,
      failingHeldUpTo: undefined,
      encoded: expect.any(String),
    });
  });

  test('a digest written by the previous version, with flaky and skipped entries, reads as its failing ones', () => {
    // Written by the version before this one for A failing twice, B flaky, C skipped and D passing,
    // and a baseline of E failing and B flaky.
    const old = body(
      '<!-- test-run-action digest v1 commit=feedface00000000000000000000000000000000 failing=2 others=2 VZrq0IJkAd9-cOUCFUBrI8DV812A -->',
      '<!-- test-run-action baseline v1 commit=abcdef1 failing=1 others=1 qfUVZr1nAN9-cOUCFUA -->',
    );
    const now = digestOf(
      testCases([
        { title: 'A', status: 'FAILED' },
        { title: 'A', status: 'TIMEDOUT' },
      ]),
      COMMIT,
    );
    expect(readDigest(old, 'digest')).toEqual(now);
    expect(readDigest(old, 'baseline')).toEqual(
      digestOf(testCases([{ title: 'E', status: 'FAILED' }]), 'abcdef1'),
    );
    // and the previous version reads this one's digest: the same v1 line, with no other entries
    expect(digestLine('digest', now)).toMatch(
      /^<!-- test-run-action digest v1 commit=\w+ failing=2 others=0 /,
    );
  });

  test('a title failing more than 64 times takes several entries and reads back whole', () => {
    const read = readDigest(
      digestLine(
        'digest',
        digestOf(testCases(many(150, 'FAILED', 'same').map((c) => ({ ...c, title: 'same' }))), undefined),
      ),
      'digest',
    );
    expect(read?.counts.get(titleHash('same'))).toBe(150);
  });

  test('no digest, a cut-off one, a forged one or garbage: nothing to compare with, never a throw', () => {
    const line = digestLine('digest', digestOf(testCases(many(40, 'FAILED')), undefined));
    const encoded = line.split(' ')[6] as string;
    const broken = [
      undefined,
      '',
      body('an earlier comment, from before the digest'),
      body(line.slice(0, 200)), // cut off: no closing -->
      body(line.replace(encoded, encoded.slice(0, -3))), // entries cut mid-way
      body(line.replace('failing=40', 'failing=3')), // holds more than it says there were
      body(line.replace(encoded, `${encoded.slice(0, -1)}!`)), // not base64url
      body(line.replace(encoded, `${encoded}A`)), // not canonical base64url
      body(line.replace(encoded, Buffer.alloc(7, 0xff).toString('base64url'))), // kind 3 does not exist
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
      body(`<!-- test-run-action digest v1 failing=1 others=0 ${'A'.repeat(DIGEST_MAX_CHARS * 4)} -->`),
      '\u0000'.repeat(100_000),
    ];
    for (const text of broken)
      expect([text?.slice(0, 60), readDigest(text, 'digest')]).toEqual([text?.slice(0, 60), undefined]);
  });

  test('a digest is found only on a line of its own, and a baseline is not read as the digest', () => {
    const line = digestLine('digest', digestOf(testCases(many(2, 'FAILED')), undefined));
    expect(readDigest(body(`a title quoting ${line}`), 'digest')).toBeUndefined();
    expect(readDigest(body(line.replace(' digest ', ' baseline ')), 'digest')).toBeUndefined();
    expect(readDigest(body(line.replace(' digest ', ' baseline ')), 'baseline')?.failing).toBe(2);
  });

  test('20,000 failing test cases: the digest stays within its cap, holds the failing titles up to a hash, and says so', () => {
    const run = testCases([...many(20_000, 'FAILED'), ...many(50, 'SKIPPED')]);
    const line = digestLine('digest', digestOf(run, COMMIT));
    expect(line.length).toBeLessThanOrEqual(DIGEST_MAX_CHARS);
    const read = readDigest(body(line), 'digest');
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
    const line = digestLine('digest', digestOf(run, undefined));
    expect(line.length).toBeLessThan(200);
    expect(readDigest(line, 'digest')).toMatchObject({ failing: 10, failingHeldUpTo: undefined });
  });

  test('with fail-on-flaky, a flaky test case fails the step and is written as failing', () => {
    const flaky = makeOutcome([{ title: 'B', status: 'FLAKY' }], { failOnFlaky: true }).testCases;
    expect(readDigest(digestLine('digest', digestOf(flaky, undefined)), 'digest')?.counts).toEqual(
      new Map([[titleHash('B'), 1]]),
    );
  });
});

describe('baselineIn: what an earlier comment gives to compare with', () => {
  const first = digestOf(testCases(many(1, 'FAILED', 'A')), 'a'.repeat(40));
  const second = digestOf(testCases(many(1, 'FAILED', 'B')), 'b'.repeat(40));
  const comment = body(digestLine('digest', second), digestLine('baseline', first));

  test('a new commit is compared with the run the comment reports', () => {
    expect(baselineIn(comment, 'c'.repeat(40))).toEqual({
      digest: expect.objectContaining({ commit: 'b'.repeat(40) }),
      rerun: false,
    });
  });

  test('a re-run of the same commit is compared with what its first attempt was compared with', () => {
    expect(baselineIn(comment, 'b'.repeat(40))).toEqual({
      digest: expect.objectContaining({ commit: 'a'.repeat(40) }),
      rerun: true,
    });
    expect(baselineIn(body(digestLine('digest', second)), 'b'.repeat(40))).toEqual({
      digest: undefined,
      rerun: true,
    });
  });

  test('without a head commit (or an earlier run without one), never a re-run', () => {
    expect(baselineIn(comment, undefined).rerun).toBe(false);
    const noCommit = body(digestLine('digest', digestOf(testCases(many(1, 'FAILED')), undefined)));
    expect(baselineIn(noCommit, undefined)).toEqual({
      digest: expect.objectContaining({ failing: 1 }),
      rerun: false,
    });
  });
});
