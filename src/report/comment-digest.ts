import { createHash } from 'node:crypto';
import type { TestCase } from './outcome.js';

/**
 * The digest of a run's test cases that did not pass, hidden in the pull request comment, so that
 * the next run of the same target can say what changed. One entry per title and kind: 6 bytes of
 * the title's SHA-256, and a byte holding the kind (2 bits) and the count less one (6 bits; a
 * title seen more often takes several entries), base64url in an HTML comment: 9⅓ characters an
 * entry. Failing entries come first, so that a digest cut at its cap keeps them.
 *
 * 48 bits of hash: among the 1,600 entries a digest holds, the chance that two titles share one is
 * about 5 in a billion.
 *
 * A comment holds two: this run's (`digest`), and the one it was compared with (`baseline`), so
 * that a re-run of the same commit is compared with the run before that commit, as its first
 * attempt was, and not with its own first attempt.
 */

/** What a test case that did not pass was: failing (it failed the step), flaky or skipped. */
export type DigestKind = 'failing' | 'flaky' | 'skipped';
const KINDS: readonly DigestKind[] = ['failing', 'flaky', 'skipped'];

const HASH_BYTES = 6;
const ENTRY_BYTES = HASH_BYTES + 1;
const MAX_COUNT = 64;
/** Characters each of the comment's two digest lines may take of its 65,536. */
export const DIGEST_MAX_CHARS = 15_000;
/** The line's frame: the words, a commit of up to 64 digits and the two counts. */
const FRAME_CHARS = 160;
/** How many entries a digest holds (one per title, or one per 64 of a title seen more often): 1,590. */
export const DIGEST_MAX_ENTRIES = Math.floor(((DIGEST_MAX_CHARS - FRAME_CHARS) * 3) / 4 / ENTRY_BYTES);

/** `digest`: the run the comment reports. `baseline`: the run that one was compared with. */
export type DigestRole = 'digest' | 'baseline';
const COMMIT = /^[0-9a-f]{7,64}$/;
const lineOf = (role: DigestRole) =>
  new RegExp(
    `^<!-- test-run-action ${role} v1 (?:commit=([0-9a-f]{7,64}) )?failing=(\\d{1,9}) others=(\\d{1,9}) ([A-Za-z0-9_-]*) -->$`,
    'm',
  );
const LINE: Record<DigestRole, RegExp> = { digest: lineOf('digest'), baseline: lineOf('baseline') };

/** A run, as its digest tells it: how many of each title (by hash) were of each kind. */
export interface Digest {
  /** The pull request's head commit the run tested, when known. */
  commit?: string;
  /** `${hash}:${kind}` → how many. */
  counts: ReadonlyMap<string, number>;
  /** How many test cases failed, and how many were flaky or skipped (the digest may hold fewer). */
  failing: number;
  others: number;
  /**
   * Undefined when the digest holds every failing test case. Otherwise the greatest title hash it
   * holds a failing one of: it holds every failing title up to that hash (entries go in hash order
   * and a title's entries are all written or none), and nothing past it.
   */
  failingHeldUpTo?: string;
  /** The entries as written, to carry the digest on unchanged. */
  encoded: string;
}

/** A title's key in a digest: the first 6 bytes of its SHA-256, as hex. */
export function titleHash(title: string): string {
  return createHash('sha256')
    .update(title)
    .digest('hex')
    .slice(0, HASH_BYTES * 2);
}

/** How a test case counts in a digest: undefined when it passed. */
export function digestKind(testCase: TestCase): DigestKind | undefined {
  if (testCase.verdict.fails) return 'failing';
  if (testCase.verdict.count === 'flaky') return 'flaky';
  if (testCase.verdict.count === 'skipped') return 'skipped';
  return undefined;
}

/** Whether the digest tells if this title failed: it holds every failing title up to its bound. */
export function tellsAbout(digest: Digest, hash: string): boolean {
  return digest.failingHeldUpTo === undefined || hash <= digest.failingHeldUpTo;
}

const keyOf = (hash: string, kind: DigestKind) => `${hash}:${kind}`;

/** The digest of a run's test cases. */
export function digestOf(testCases: readonly TestCase[], commit: string | undefined): Digest {
  const byKindAndHash = new Map<string, number>();
  let failing = 0;
  let others = 0;
  for (const testCase of testCases) {
    const kind = digestKind(testCase);
    if (kind === undefined) continue;
    if (kind === 'failing') failing++;
    else others++;
    const key = `${KINDS.indexOf(kind)}:${titleHash(testCase.title)}`;
    byKindAndHash.set(key, (byKindAndHash.get(key) ?? 0) + 1);
  }
  // Failing first (kind 0), then by hash: a digest cut at its cap keeps the failing ones.
  const entries: Buffer[] = [];
  const counts = new Map<string, number>();
  let heldFailing = 0;
  let lastFailingHash: string | undefined;
  for (const key of [...byKindAndHash.keys()].sort()) {
    const [kindIndex, hash] = key.split(':') as [string, string];
    const count = byKindAndHash.get(key) as number;
    if (entries.length + Math.ceil(count / MAX_COUNT) > DIGEST_MAX_ENTRIES) break;
    for (let left = count; left > 0; left -= MAX_COUNT) {
      const entry = Buffer.alloc(ENTRY_BYTES);
      entry.write(hash, 'hex');
      entry[HASH_BYTES] = (Number(kindIndex) << 6) | (Math.min(left, MAX_COUNT) - 1);
      entries.push(entry);
    }
    const kind = KINDS[Number(kindIndex)] as DigestKind;
    counts.set(keyOf(hash, kind), count);
    if (kind === 'failing') {
      heldFailing += count;
      lastFailingHash = hash;
    }
  }
  return {
    commit: commit && COMMIT.test(commit) ? commit : undefined,
    counts,
    failing,
    others,
    failingHeldUpTo: heldFailing === failing ? undefined : (lastFailingHash ?? ''),
    encoded: Buffer.concat(entries).toString('base64url'),
  };
}

/** A digest as the hidden line of a comment. */
export function digestLine(role: DigestRole, digest: Digest): string {
  const commit = digest.commit ? `commit=${digest.commit} ` : '';
  return `<!-- test-run-action ${role} v1 ${commit}failing=${digest.failing} others=${digest.others} ${digest.encoded} -->`;
}

/**
 * The digest of that role a comment body holds; undefined when it holds none, or one that is cut
 * off, forged or garbage: then there is nothing to compare with. Never throws; linear in the body.
 */
export function readDigest(body: string | undefined, role: DigestRole): Digest | undefined {
  const match = body === undefined ? null : LINE[role].exec(body);
  if (!match) return undefined;
  const [, commit, failingText, othersText, encoded = ''] = match;
  const bytes = Buffer.from(encoded, 'base64url');
  if (bytes.length % ENTRY_BYTES !== 0 || bytes.toString('base64url') !== encoded) return undefined;
  if (bytes.length / ENTRY_BYTES > DIGEST_MAX_ENTRIES) return undefined;
  const counts = new Map<string, number>();
  const held = { failing: 0, others: 0 };
  let previousKey = '';
  let lastFailingHash: string | undefined;
  for (let offset = 0; offset < bytes.length; offset += ENTRY_BYTES) {
    const tail = bytes[offset + HASH_BYTES] as number;
    const kind = KINDS[tail >> 6];
    if (kind === undefined) return undefined;
    const hash = bytes.toString('hex', offset, offset + HASH_BYTES);
    // As written: kinds in order, hashes ascending within each (a title's entries side by side).
    const orderKey = `${tail >> 6}:${hash}`;
    if (orderKey < previousKey) return undefined;
    previousKey = orderKey;
    const count = (tail & 0x3f) + 1;
    counts.set(keyOf(hash, kind), (counts.get(keyOf(hash, kind)) ?? 0) + count);
    if (kind === 'failing') {
      held.failing += count;
      lastFailingHash = hash;
    } else held.others += count;
  }
  const failing = Number(failingText);
  const others = Number(othersText);
  if (held.failing > failing || held.others > others) return undefined;
  // Failing entries come first: a digest that holds others but not every failing one was not written so.
  if (held.failing < failing && held.others > 0) return undefined;
  return {
    commit,
    counts,
    failing,
    others,
    failingHeldUpTo: held.failing === failing ? undefined : (lastFailingHash ?? ''),
    encoded,
  };
}

/**
 * The run to compare with, from the earlier comment of this target: the run it reports, or, when
 * that run tested this same commit (a re-run), the run it was compared with itself; so re-running
 * a job never turns its new failures into known ones.
 */
export function baselineIn(
  body: string | undefined,
  headSha: string | undefined,
): { digest?: Digest; rerun: boolean } {
  const reported = readDigest(body, 'digest');
  if (reported?.commit !== undefined && reported.commit === headSha) {
    return { digest: readDigest(body, 'baseline'), rerun: true };
  }
  return { digest: reported, rerun: false };
}
