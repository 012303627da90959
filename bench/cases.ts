/**
 * Realistic test cases for the benchmark: a fixed pseudo-random mix of statuses, Playwright-like
 * titles of 40 to 120 characters (`file.spec.ts › Group › test`, about one in ten with `<`, `|`, `&`
 * and the like, some with other non-ASCII text), and durations.
 * The same seed gives the same cases, so runs of the benchmark compare.
 */
import type { SimTestCase } from '../__tests__/simulator/simulator.js';

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = ['checkout/cart', 'checkout/payment', 'search/suggest', 'account/settings', 'orders/history'];
const GROUPS = ['Cart', 'Payment', 'Search', 'Account', 'Orders', 'Größe und Maße'];
const WORDS = [
  'applies',
  'the',
  'discount',
  'code',
  'when',
  'a',
  'guest',
  'signs',
  'in',
  'with',
  'saved',
  'card',
  'shows',
  'total',
  'rounds',
  'to',
  'cents',
  'für',
  'retries',
  'after',
  'timeout',
];
// About one title in ten carries text that must be escaped in HTML, Markdown and XML.
const MARKUP = ['<b>WELCOME10</b>', 'A | B', 'Tom & Jerry', 'price > 0 "quoted"', '`code` *bold* [link]'];
// The service's test case statuses not among the main ones: a final run with these did not finish.
const OTHER_STATUSES = ['INTERRUPTED', 'QUEUED', 'RUNNING'];

function titleOf(random: () => number, index: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const length = 40 + Math.floor(random() * 81);
  let title = `${pick(FILES)}.spec.ts › ${pick(GROUPS)} › #${index}`;
  if (random() < 0.1) title += ` ${pick(MARKUP)}`;
  while (title.length < length) title += ` ${pick(WORDS)}`;
  return title.slice(0, length).trimEnd();
}

/** About 90 % PASSED, 4 % FAILED, 2 % FLAKY, 2 % SKIPPED, 1 % TIMEDOUT, 1 % other (did not finish). */
function statusOf(draw: number, random: () => number): string {
  if (draw < 0.9) return 'PASSED';
  if (draw < 0.94) return 'FAILED';
  if (draw < 0.96) return 'FLAKY';
  if (draw < 0.98) return 'SKIPPED';
  if (draw < 0.99) return 'TIMEDOUT';
  return OTHER_STATUSES[Math.floor(random() * OTHER_STATUSES.length)] as string;
}

export function makeTestCases(count: number, seed = 42): SimTestCase[] {
  const random = seeded(seed);
  const cases: SimTestCase[] = [];
  for (let i = 1; i <= count; i++) {
    const status = statusOf(random(), random);
    const title = titleOf(random, i);
    // Skipped cases carry no duration, as the service leaves it out.
    cases.push(
      status === 'SKIPPED'
        ? { title, status }
        : { title, status, durationMs: 50 + Math.floor(random() * 60_000) },
    );
  }
  return cases;
}
