import { createHash } from 'node:crypto';

/**
 * The digest of a run's failing test cases, hidden in the pull request comment, so that the next
 * run of the same target can say what changed. One entry per title: 6 bytes of the title's
 * SHA-256, and a byte holding the count less one (a title failing more than 64 times takes several
 * entries), base64url in an HTML comment: 9⅓ characters an entry. Entries go in hash order, so a
 * digest cut at its cap holds every failing title up to a hash.
 *
 * 48 bits of hash: among the 1,600 entries a digest holds, the chance that two titles share one is
 * about 5 in a billion.
 *
 * A comment holds two: this run's (`digest`), and the one it was compared with (`baseline`), so
 * that a re-run of the same commit is compared with the run before that commit, as its first
 * attempt was, and not with its own first attempt.
 *
 * Digests written before this version held flaky and skipped titles too, after the failing ones
 * (the entry byte's top 2 bits: 1 flaky, 2 skipped; `others=` their count). Nothing compared them:
 * they are no longer written, and skipped when read. The line is still v1, with `others=0`, so
 * that either version reads the other's digest (comments on open pull requests hold the old one).
 */

const HASH_BYTES = 6;
const ENTRY_BYTES = HASH_BYTES + 1;
const MAX_COUNT = 64;
/** The entry byte's top 2 bits: 0 for a failing title; old digests used 1 and 2, 3 never. */
const KIND_SHIFT = 6;
const OLD_KINDS = 3;
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
    `^<!-- test-run-action ${role} v1 (?:commit=([0-9a-f]{7,64}) )?failing=(\\d{1,9}) others=\\d{1,9} ([A-Za-z0-9_-]*) -->$`,
    'm',
  );

/** A run's failing test cases, as its digest tells them. */
export interface Digest {
  /** The pull request's head commit the run tested, when known. */
  commit?: string;
  /** Title hash → how many test cases of that title failed. */
  counts: ReadonlyMap<string, number>;
  /** How many test cases failed (the digest may hold fewer). */
  failing: number;
  /**
   * Undefined when the digest holds every failing test case. Otherwise the greatest title hash it
   * holds: it holds every failing title up to that hash (a title's entries are all written or
   * none), and nothing past it.
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

/** Whether the digest tells if this title failed: it holds every failing title up to its bound. */
export function tellsAbout(digest: Digest, hash: string): boolean {
  return digest.failingHeldUpTo === undefined || hash <= digest.failingHeldUpTo;
}

/** The digest of a run's test cases: those that fail the step (fail-on-flaky included). */
export function digestOf(
  testCases: readonly { title: string; verdict: { fails: boolean } }[],
  commit: string | undefined,
): Digest {
  const byHash = new Map<string, number>();
  let failing = 0;
  for (const { title, verdict } of testCases) {
    if (!verdict.fails) continue;
    failing++;
    const hash = titleHash(title);
    byHash.set(hash, (byHash.get(hash) ?? 0) + 1);
  }
  const entries: Buffer[] = [];
  for (const hash of [...byHash.keys()].sort()) {
    const count = byHash.get(hash) as number;
    if (entries.length + Math.ceil(count / MAX_COUNT) > DIGEST_MAX_ENTRIES) break;
    for (let left = count; left > 0; left -= MAX_COUNT) {
      const entry = Buffer.alloc(ENTRY_BYTES);
      entry.write(hash, 'hex');
      entry[HASH_BYTES] = Math.min(left, MAX_COUNT) - 1;
      entries.push(entry);
    }
  }
  // Read back, so that the entry layout is decoded in one place (at most 1,590 entries).
  const encoded = Buffer.concat(entries).toString('base64url');
  return decode(commit && COMMIT.test(commit) ? commit : undefined, failing, encoded) as Digest;
}

/** A digest as the hidden line of a comment. */
export function digestLine(role: DigestRole, digest: Digest): string {
  const commit = digest.commit ? `commit=${digest.commit} ` : '';
  return `<!-- test-run-action ${role} v1 ${commit}failing=${digest.failing} others=0 ${digest.encoded} -->`;
}

/**
 * The digest of that role a comment body holds; undefined when it holds none, or one that is cut
 * off, forged or garbage: then there is nothing to compare with. Never throws; linear in the body.
 */
export function readDigest(body: string | undefined, role: DigestRole): Digest | undefined {
  const match = body === undefined ? null : lineOf(role).exec(body);
  return match ? decode(match[1], Number(match[2]), match[3] ?? '') : undefined;
}

/** The entries of a digest line; an old digest's flaky and skipped entries are left out, of `encoded` too. */
function decode(commit: string | undefined, failing: number, encoded: string): Digest | undefined {
  const bytes = Buffer.from(encoded, 'base64url');
  if (bytes.length % ENTRY_BYTES !== 0 || bytes.toString('base64url') !== encoded) return undefined;
  if (bytes.length / ENTRY_BYTES > DIGEST_MAX_ENTRIES) return undefined;
  const counts = new Map<string, number>();
  let held = 0;
  let failingBytes = 0;
  let previous = '';
  let lastHash = '';
  for (let offset = 0; offset < bytes.length; offset += ENTRY_BYTES) {
    const kind = (bytes[offset + HASH_BYTES] as number) >> KIND_SHIFT;
    const hash = bytes.toString('hex', offset, offset + HASH_BYTES);
    // As written: by kind, then by hash (a title's entries side by side).
    const order = `${kind}:${hash}`;
    if (kind >= OLD_KINDS || order < previous) return undefined;
    previous = order;
    if (kind !== 0) continue;
    const count = ((bytes[offset + HASH_BYTES] as number) & (MAX_COUNT - 1)) + 1;
    counts.set(hash, (counts.get(hash) ?? 0) + count);
    held += count;
    lastHash = hash;
    failingBytes = offset + ENTRY_BYTES;
  }
  if (held > failing) return undefined;
  const failingHeldUpTo = held === failing ? undefined : lastHash;
  return { commit, counts, failing, failingHeldUpTo, encoded: bytes.toString('base64url', 0, failingBytes) };
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
