import { InputError } from '../../src/inputs/input-error.js';
import {
  expired,
  expiringWithin,
  matchesPattern,
  parseQuarantine,
  quarantineMatcher,
  utcDay,
} from '../../src/inputs/quarantine.js';

describe('parseQuarantine', () => {
  test('each non-blank line, trimmed; one ending in "until YYYY-MM-DD" has that date', () => {
    const text = '  Checkout *  \n\n\tLogin until 2026-03-31 \nSearch   until\t 2026-12-01\n   \n';
    expect(parseQuarantine(text)).toEqual([
      { pattern: 'Checkout *' },
      { pattern: 'Login', until: '2026-03-31' },
      { pattern: 'Search', until: '2026-12-01' },
    ]);
  });

  test('nothing for an empty input', () => {
    expect(parseQuarantine('')).toEqual([]);
    expect(parseQuarantine(' \n \n')).toEqual([]);
  });

  test.each([
    'Waits until the cart is saved',
    'Retries until 3 attempts',
    'until',
    'Shows the banner until 2026-03-31 ends',
    'Keeps until-2026-03-31',
    'Keeps Until 2026-03-31',
  ])('%p is a plain pattern: a title may contain "until"', (line) => {
    expect(parseQuarantine(line)).toEqual([{ pattern: line }]);
  });

  test('only the last two words are the date: the pattern keeps an "until" of its own', () => {
    expect(parseQuarantine('Waits until saved until 2026-01-31')).toEqual([
      { pattern: 'Waits until saved', until: '2026-01-31' },
    ]);
  });

  test.each([
    ['Login until 2026-02-30', '2026-02-30'],
    ['Login until 2026-13-01', '2026-13-01'],
    ['Login until 2026-00-10', '2026-00-10'],
    ['Login until 2025-02-29', '2025-02-29'],
    ['Login until 2026-04-31', '2026-04-31'],
    ['Login until 2026-5-1', '2026-5-1'],
  ])('%p is an input error naming the input, the line and the date', (line, date) => {
    const parse = () => parseQuarantine(`Checkout *\n${line}`);
    expect(parse).toThrow(InputError);
    expect(parse).toThrow(`Input 'quarantine' line 2, '${line}'`);
    expect(parse).toThrow(`YYYY-MM-DD (e.g. 2026-03-31); got '${date}'`);
  });

  test('a leap day that exists is a date', () => {
    expect(parseQuarantine('Login until 2028-02-29')).toEqual([{ pattern: 'Login', until: '2028-02-29' }]);
  });

  test('a date with no pattern before it is an input error', () => {
    expect(() => parseQuarantine('until 2026-03-31')).toThrow(
      "Input 'quarantine' line 1, 'until 2026-03-31': a test case title or pattern must come before 'until'.",
    );
  });
});

describe('expiry', () => {
  const entry = { pattern: 'Login', until: '2026-03-31' };

  test('in force through its day, expired from the day after', () => {
    expect(expired(entry, '2026-03-30')).toBe(false);
    expect(expired(entry, '2026-03-31')).toBe(false);
    expect(expired(entry, '2026-04-01')).toBe(true);
    expect(expired(entry, '2027-01-01')).toBe(true);
  });

  test('an entry without a date never expires', () => {
    expect(expired({ pattern: 'Login' }, '9999-12-31')).toBe(false);
  });

  test('the UTC day of a time', () => {
    expect(utcDay(Date.parse('2026-03-31T23:59:59.999Z'))).toBe('2026-03-31');
    expect(utcDay(new Date('2026-04-01T00:30:00+02:00'))).toBe('2026-03-31');
  });

  test('expiring within 7 days: today to 6 days on, across a month and a year', () => {
    const entries = [
      { pattern: 'a', until: '2026-12-27' }, // expired yesterday
      { pattern: 'b', until: '2026-12-28' }, // today: its last day
      { pattern: 'c' },
      { pattern: 'd', until: '2027-01-03' }, // the 7th day, today counted
      { pattern: 'e', until: '2027-01-04' }, // the 8th
    ];
    expect(expiringWithin(entries, '2026-12-28').map(({ pattern }) => pattern)).toEqual(['b', 'd']);
    expect(expiringWithin(entries, '2026-12-28', 1).map(({ pattern }) => pattern)).toEqual(['b']);
    expect(expiringWithin(entries, '2026-12-28', 8).map(({ pattern }) => pattern)).toEqual(['b', 'd', 'e']);
    expect(expiringWithin(entries, '2026-02-27', 3)).toEqual([]);
    expect(expiringWithin([{ pattern: 'f', until: '2028-03-01' }], '2028-02-28', 3)).toHaveLength(1);
  });
});

describe('matchesPattern', () => {
  test.each([
    ['Checkout', 'Checkout', true],
    ['Checkout', 'Checkout pays', false],
    ['Checkout', 'checkout', false],
    ['Checkout *', 'Checkout pays', true],
    ['Checkout *', 'Checkout ', true],
    ['Checkout *', 'Checkout', false],
    ['* pays', 'Checkout pays', true],
    ['*', '', true],
    ['*', 'anything', true],
    ['**', 'anything', true],
    ['', '', true],
    ['', 'a', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'a-b-c', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['ab*ba', 'aba', false],
    ['*x*x*', 'x', false],
    ['*x*x*', 'xx', true],
    ['Cart (2) [EU] $5.?', 'Cart (2) [EU] $5.?', true],
    ['Cart (2) [EU] $5.?', 'Cart (2) [EU] $50', false],
    ['a.c', 'abc', false],
  ])('%p and %p: %p', (pattern, title, expected) => {
    expect(matchesPattern(pattern, title)).toBe(expected);
  });

  test('a pattern that would make a regular expression backtrack answers at once', () => {
    const title = 'a'.repeat(100_000);
    const started = performance.now();
    expect(matchesPattern('*a*a*a*a*a*a*a*a*b', title)).toBe(false);
    expect(matchesPattern(`*${'a*'.repeat(50)}`, title)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('quarantineMatcher', () => {
  const matcher = quarantineMatcher(['Checkout *', 'Login', 'Checkout *', 'Gone *']);

  test('matches a title that any pattern matches', () => {
    expect(matcher.matches('Checkout pays')).toBe(true);
    expect(matcher.matches('Login')).toBe(true);
    expect(matcher.matches('Login again')).toBe(false);
  });

  test('names the patterns that match none of the titles, each once', () => {
    expect(matcher.unmatched(['Checkout pays', 'Search'])).toEqual(['Login', 'Gone *']);
    expect(matcher.unmatched([])).toEqual(['Checkout *', 'Login', 'Gone *']);
  });

  test('no pattern matches nothing', () => {
    expect(quarantineMatcher([]).matches('Login')).toBe(false);
  });
});
