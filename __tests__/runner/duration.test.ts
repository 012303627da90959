import { formatDuration, NO_DURATION } from '../../src/runner/duration.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [999.4, '999 ms'],
    [999.6, '1.0 s'],
    [1_000, '1.0 s'],
    [1_234, '1.2 s'],
    [59_900, '59.9 s'],
    [59_960, '1 min'],
    [184_000, '3 min 4 s'],
    [3_599_400, '59 min 59 s'],
    [3_599_600, '1 h'],
    [3_720_000, '1 h 2 min'],
    [90_000_000, '25 h'],
  ])('%p ms -> %p', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });

  it.each([undefined, Number.NaN, -5, Number.POSITIVE_INFINITY])('%p -> a dash, never empty', (ms) => {
    expect(formatDuration(ms)).toBe(NO_DURATION);
  });
});
