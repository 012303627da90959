import type { Exit } from './cloudflared-process.js';

/** What the user reads when a tunnel cannot be opened, or goes down: each message names the local origin. */

const README_SECTION = '"Test the app your job starts" in the README';

const NETWORK_HINT = `Quick tunnels need outbound UDP 7844 (or TCP 7844), HTTPS to api.trycloudflare.com and DNS, and cloudflared does not use https_proxy: see ${README_SECTION}.`;

/** Why one attempt, with one cloudflared process, did not give a working tunnel. */
export type AttemptFailure =
  | { kind: 'exited'; exit: Exit; lastLine?: string }
  | { kind: 'rate-limited' }
  | { kind: 'no-url'; waitedMs: number; lastLine?: string }
  | { kind: 'not-registered'; waitedMs: number; http2: boolean; lastError?: string }
  | { kind: 'unreachable'; waitedMs: number; lastProbe: string };

/** A line of cloudflared's log in a message: quoted, and cut when long. */
function quoted(line: string): string {
  return `"${line.length > 300 ? `${line.slice(0, 297)}...` : line}"`;
}

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function exitText(exit: Exit): string {
  if (exit.error !== undefined) return `it could not be started: ${exit.error}`;
  return exit.code !== null ? `exit code ${exit.code}` : `signal ${exit.signal}`;
}

export function attemptClause(failure: AttemptFailure): string {
  switch (failure.kind) {
    case 'exited':
      return `cloudflared exited before the tunnel was up (${exitText(failure.exit)})${failure.lastLine ? `: ${quoted(failure.lastLine)}` : ''}`;
    case 'rate-limited':
      return 'Cloudflare refused to create a quick tunnel with HTTP 429 Too Many Requests (it limits them per address, and runners share addresses)';
    case 'no-url':
      return `cloudflared printed no tunnel URL within ${seconds(failure.waitedMs)}${failure.lastLine ? ` (its last line: ${quoted(failure.lastLine)})` : ''}`;
    case 'not-registered':
      return `cloudflared did not connect to Cloudflare within ${seconds(failure.waitedMs)} over ${failure.http2 ? 'HTTP/2 (TCP 7844)' : 'QUIC (UDP 7844)'}${failure.lastError ? ` (${quoted(failure.lastError)})` : ''}`;
    case 'unreachable':
      return `its public URL did not reach the app within ${seconds(failure.waitedMs)} (last try: ${failure.lastProbe})`;
  }
}

/** The message when every attempt failed; `last` is the last attempt's failure. */
export function attemptsFailedMessage(origin: string, attempts: number, last: AttemptFailure): string {
  const start = `Could not open a tunnel to ${origin} (${attempts} attempts, each with a fresh cloudflared); the last one: ${attemptClause(last)}.`;
  if (last.kind === 'rate-limited') return `${start} Re-run the job later; see ${README_SECTION}.`;
  return `${start} ${NETWORK_HINT}`;
}

export function nothingListeningMessage(origin: string, waitedMs: number, lastTry: string): string {
  return `Could not open a tunnel to ${origin}: nothing answered there within ${seconds(waitedMs)} (last try: ${lastTry}). Start the app before this step, and check its port; see ${README_SECTION}.`;
}

export function cloudflaredMissingMessage(origin: string, why: string): string {
  return `Could not open a tunnel to ${origin}: cloudflared is not on PATH, and ${why}. Install cloudflared in an earlier step; see ${README_SECTION}.`;
}

export function cancelledMessage(origin: string): string {
  return `Stopped opening the tunnel to ${origin}: the job is being cancelled.`;
}

/** For a warning when a tunnel that was up goes down while the run goes on. */
export function tunnelDownMessage(origin: string, exit: Exit, lastLine: string | undefined): string {
  return `The tunnel to ${origin} is down: cloudflared exited (${exitText(exit)})${lastLine ? `: ${quoted(lastLine)}` : ''}. The service's tests can no longer reach the app.`;
}
