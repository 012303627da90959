import { createHash } from 'node:crypto';

/*
 * The digest of a run's failing test cases, hidden in the pull request comment for the next run
 * of the target to compare with. v1 layout, base64url in an HTML comment, one 7-byte entry per
 * title: 6 bytes of the title's SHA-256 (48 bits: two of 1,600 titles collide about 5 times in a
 * billion), then a byte of the count less one (a title failing over 64 times takes more entries).
 * Entries go in hash order, so a digest cut at its cap holds every failing title up to a hash.
 *
 * Older digests also held flaky and skipped titles after the failing ones (the entry byte's top 2
 * bits 1 and 2, counted by `others=`): they are skipped when read, and `others=0` is still written
 * so that either version reads the other's digest on open pull requests.
 */

const HASH_BYTES = 6;
const ENTRY_BYTES = HASH_BYTES + 1;
const MAX_COUNT = 64;
const KIND_SHIFT = 6;
const OLD_KINDS = 3;
/** Each of the comment's two digest lines, of its 65,536 characters. */
export const DIGEST_MAX_CHARS = 15_000;
/** The line's frame: the words, a commit of up to 64 digits and the two counts. */
const FRAME_CHARS = 160;
const entriesWithin = (maxChars: number) =>
  Math.max(0, Math.floor(((maxChars - FRAME_CHARS) * 3) / 4 / ENTRY_BYTES));
export const DIGEST_MAX_ENTRIES = entriesWithin(DIGEST_MAX_CHARS);

/**
 * `digest`: the run the comment reports. `baseline`: the run that one was compared with, so that a
 * re-run of a commit compares with the run before that commit, not with its own first attempt.
 */
type DigestRole = 'digest' | 'baseline';
const COMMIT = /^[0-9a-f]{7,64}$/;

export interface Digest {
  commit?: string;
  counts: ReadonlyMap<string, number>;
  /** How many test cases failed (the digest may hold fewer). */
  failing: number;
  /** When the digest was cut: the greatest title hash it holds (a title's entries are all written or none). */
  failingHeldUpTo?: string;
  /** The entries as written, to carry the digest on unchanged. */
  encoded: string;
}

export function titleHash(title: string): string {
  return createHash('sha256')
    .update(title)
    .digest('hex')
    .slice(0, HASH_BYTES * 2);
}

/** `maxChars`: of its line; a comment with a section per target gives each a share. */
export function digestOf(
  testCases: readonly { title: string; verdict: { fails: boolean } }[],
  commit: string | undefined,
  maxChars = DIGEST_MAX_CHARS,
): Digest {
  const byHash = new Map<string, number>();
  let failing = 0;
  for (const { title, verdict } of testCases) {
    if (!verdict.fails) continue;
    failing++;
    const hash = titleHash(title);
    byHash.set(hash, (byHash.get(hash) ?? 0) + 1);
  }
  return encode(byHash, failing, commit, entriesWithin(maxChars));
}

/** The digest cut to a line of `maxChars`, as digestOf would have cut it. */
export function cutTo(digest: Digest, maxChars: number): Digest {
  const entries = entriesWithin(maxChars);
  if ((digest.encoded.length * 3) / 4 / ENTRY_BYTES <= entries) return digest;
  return encode(digest.counts, digest.failing, digest.commit, entries);
}

/**
 * Known failing in either digest: a title counts as often as it failed in the one where it failed
 * most. Where either was cut, the union holds titles only up to the lower of their cuts.
 */
export function unionOf(first: Digest, second: Digest): Digest {
  const cut = [first.failingHeldUpTo, second.failingHeldUpTo].filter((hash) => hash !== undefined).sort()[0];
  const byHash = new Map<string, number>();
  for (const [hash, count] of [...first.counts, ...second.counts]) {
    if (cut === undefined || hash <= cut) byHash.set(hash, Math.max(count, byHash.get(hash) ?? 0));
  }
  const held = [...byHash.values()].reduce((sum, count) => sum + count, 0);
  // One more failing than held marks the union as cut where either digest was.
  return encode(byHash, cut === undefined ? held : held + 1, first.commit);
}

function encode(
  byHash: ReadonlyMap<string, number>,
  failing: number,
  commit: string | undefined,
  maxEntries = DIGEST_MAX_ENTRIES,
): Digest {
  const entries: Buffer[] = [];
  for (const hash of [...byHash.keys()].sort()) {
    const count = byHash.get(hash) as number;
    if (entries.length + Math.ceil(count / MAX_COUNT) > maxEntries) break;
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

export function digestLine(role: DigestRole, digest: Digest): string {
  const commit = digest.commit ? `commit=${digest.commit} ` : '';
  return `<!-- test-run-action ${role} v1 ${commit}failing=${digest.failing} others=0 ${digest.encoded} -->`;
}

/** Undefined for a digest that is missing, cut off, forged or garbage. Never throws; linear in the body. */
export function readDigest(body: string | undefined, role: DigestRole): Digest | undefined {
  const pattern = `^<!-- test-run-action ${role} v1 (?:commit=([0-9a-f]{7,64}) )?failing=(\\d{1,9}) others=\\d{1,9} ([A-Za-z0-9_-]*) -->$`;
  const match = body === undefined ? null : new RegExp(pattern, 'm').exec(body);
  return match ? decode(match[1], Number(match[2]), match[3] ?? '') : undefined;
}

/** An old digest's flaky and skipped entries are left out, of `encoded` too. */
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

/** The run to compare with: the earlier comment's, or on a re-run of its commit, its own baseline. */
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
