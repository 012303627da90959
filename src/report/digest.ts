import { hash } from 'node:crypto';

/*
 * The digest of a run's failing test cases, hidden in the target's check run for later runs to
 * compare with. v1 layout, base64url in an HTML comment, one 7-byte entry per title: 6 bytes of
 * the title's SHA-256 (48 bits: two of 1,600 titles collide about 5 times in a billion), then a
 * byte of the count less one (a title failing over 64 times takes more entries). Entries go in
 * hash order, so a digest cut at its cap holds every failing title up to a hash.
 */

const HASH_BYTES = 6;
const ENTRY_BYTES = HASH_BYTES + 1;
const MAX_COUNT = 64;
/** Of the check run's summary, whose limit is 65,535 characters. */
export const DIGEST_MAX_CHARS = 15_000;
/** The line's frame: the words, a commit of up to 64 digits and the count. */
const FRAME_CHARS = 160;
export const DIGEST_MAX_ENTRIES = Math.floor(((DIGEST_MAX_CHARS - FRAME_CHARS) * 3) / 4 / ENTRY_BYTES);
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
  return hash('sha256', title, 'hex').slice(0, HASH_BYTES * 2);
}

const hashes = new WeakMap<object, string>();

/** A test case's title hash, made once: the comparison, the history and every report ask for it. */
export function hashOf(testCase: { title: string }): string {
  let made = hashes.get(testCase);
  if (made === undefined) {
    made = titleHash(testCase.title);
    hashes.set(testCase, made);
  }
  return made;
}

export function digestOf(
  testCases: readonly { title: string; verdict: { fails: boolean } }[],
  commit: string | undefined,
): Digest {
  const byHash = new Map<string, number>();
  let failing = 0;
  for (const testCase of testCases) {
    if (!testCase.verdict.fails) continue;
    failing++;
    const title = hashOf(testCase);
    byHash.set(title, (byHash.get(title) ?? 0) + 1);
  }
  return encode(byHash, failing, commit);
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

function encode(byHash: ReadonlyMap<string, number>, failing: number, commit: string | undefined): Digest {
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

export function digestLine(digest: Digest): string {
  const commit = digest.commit ? `commit=${digest.commit} ` : '';
  return `<!-- test-run-action digest v1 ${commit}failing=${digest.failing} ${digest.encoded} -->`;
}

const DIGEST_LINE =
  /^<!-- test-run-action digest v1 (?:commit=([0-9a-f]{7,64}) )?failing=(\d{1,9}) ([A-Za-z0-9_-]*) -->$/m;

/** Undefined for a digest that is missing, cut off, forged or garbage. Never throws; linear in the text. */
export function readDigest(text: string | undefined): Digest | undefined {
  const match = text === undefined ? null : DIGEST_LINE.exec(text);
  return match ? decode(match[1], Number(match[2]), match[3] ?? '') : undefined;
}

function decode(commit: string | undefined, failing: number, encoded: string): Digest | undefined {
  const bytes = Buffer.from(encoded, 'base64url');
  if (bytes.length % ENTRY_BYTES !== 0 || bytes.toString('base64url') !== encoded) return undefined;
  if (bytes.length / ENTRY_BYTES > DIGEST_MAX_ENTRIES) return undefined;
  const counts = new Map<string, number>();
  let held = 0;
  let lastHash = '';
  for (let offset = 0; offset < bytes.length; offset += ENTRY_BYTES) {
    const hash = bytes.toString('hex', offset, offset + HASH_BYTES);
    const countByte = bytes[offset + HASH_BYTES] as number;
    // As written: by hash, a title's entries side by side.
    if (hash < lastHash || countByte >= MAX_COUNT) return undefined;
    const count = countByte + 1;
    counts.set(hash, (counts.get(hash) ?? 0) + count);
    held += count;
    lastHash = hash;
  }
  if (held > failing) return undefined;
  const failingHeldUpTo = held === failing ? undefined : lastHash;
  return { commit, counts, failing, failingHeldUpTo, encoded };
}
