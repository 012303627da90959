import { describe, expect, it } from '@jest/globals';
import { pollUntil } from '../../src/service/poll.js';
import { virtualClock } from '../helpers/virtual-clock.js';

describe('pollUntil, the one poll loop', () => {
  it('draws each pause anew, cuts the last to the deadline, and tells the try after it that it is the last', async () => {
    const clock = virtualClock(() => 0.5, 0);
    const pauses = [700, 900, 1_100];
    const tries: [number, boolean][] = [];
    const result = await pollUntil(
      async (last) => {
        tries.push([clock.now(), last]);
        return undefined;
      },
      { clock, waitMs: 2_000, intervalMs: () => pauses.shift() ?? 0 },
    );
    expect(result).toBeUndefined();
    expect(clock.slept).toEqual([700, 900, 400]);
    expect(tries).toEqual([
      [0, false],
      [700, false],
      [1_600, false],
      [2_000, true],
    ]);
  });

  it('after a try that ran past the deadline: the wait ends, or with lastLookWhenLate one last try at once', async () => {
    for (const lastLookWhenLate of [false, true]) {
      const clock = virtualClock(() => 0.5, 0);
      const tries: boolean[] = [];
      await pollUntil(
        async (last) => {
          tries.push(last);
          clock.advance(3_000);
          return undefined;
        },
        { clock, waitMs: 2_000, intervalMs: 1_000, lastLookWhenLate },
      );
      expect(tries).toEqual(lastLookWhenLate ? [false, true] : [false]);
      expect(clock.slept).toEqual(lastLookWhenLate ? [0] : []);
    }
  });

  it('neither tries nor pauses once the signal aborts', async () => {
    const clock = virtualClock(() => 0.5, 0);
    const abort = new AbortController();
    const result = await pollUntil(
      async () => {
        abort.abort();
        return undefined;
      },
      { clock, waitMs: 60_000, intervalMs: 1_000, signal: abort.signal },
    );
    expect(result).toBeUndefined();
    expect(clock.slept).toEqual([]);
  });
});
