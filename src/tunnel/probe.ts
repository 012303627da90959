import type { Clock } from '../service/clock.js';
import { send, TransportError } from '../service/transport.js';

/**
 * Asking whether something answers: the local app, the public URL.
 * Requests go through the service's transport (@actions/http-client), so that the public URL is
 * probed through `https_proxy` when one is set; loopback hosts never go through a proxy.
 */

export type ProbeResult = { status: number } | { failure: string; tls: boolean };

/** GET `url` once: the status of the answer, or why none came. */
export async function probe(url: string, timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> {
  try {
    const answer = await send(url, 'GET', {}, undefined, timeoutMs, signal);
    return { status: answer.status };
  } catch (error) {
    if (error instanceof TransportError) {
      return { failure: error.describe(`no answer within ${timeoutMs} ms`), tls: error.kind === 'tls' };
    }
    return { failure: error instanceof Error ? error.message : String(error), tls: false };
  }
}

/**
 * Whether the public URL's answer came from the app. Cloudflare's edge and cloudflared answer 5xx
 * for a name that does not route yet (530, 502…), so a 5xx counts only when the app itself
 * answered its local origin with the same status.
 */
export function reachedApp(status: number, localStatus: number | undefined): boolean {
  return status < 500 || status === localStatus;
}

/**
 * The one way the tunnel waits: calls `attempt` until it gives a value, at most every
 * `intervalMs`; undefined once `waitMs` (from the first try; the last try is made at the deadline)
 * have passed or `signal` aborted.
 */
export async function pollUntil<T>(
  attempt: () => Promise<T | undefined>,
  {
    clock,
    waitMs,
    intervalMs,
    signal,
  }: { clock: Clock; waitMs: number; intervalMs: number; signal?: AbortSignal },
): Promise<T | undefined> {
  const deadline = clock.now() + waitMs;
  for (;;) {
    if (signal?.aborted) return undefined;
    const value = await attempt();
    if (value !== undefined) return value;
    const remaining = deadline - clock.now();
    if (remaining <= 0 || signal?.aborted) return undefined;
    await clock.sleep(Math.min(intervalMs, remaining), signal);
  }
}
