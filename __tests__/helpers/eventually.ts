/**
 * Waits for what a child process or a server does in its own time (a line on its stderr, a
 * connection it logs): `check`, typically an expect(), is tried at once, then every `intervalMs`
 * until it passes, and what it returns is returned. Once `timeoutMs` have passed, the last try's
 * error is thrown, the matcher's message with it.
 *
 * Such output is never read on a fixed beat (right after some event, or after a fixed sleep): on a
 * loaded machine it may not be there yet.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 10 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (performance.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
