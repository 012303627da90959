/**
 * What cloudflared's stderr says about a quick tunnel. It is a log, not an API: lines of
 * `<UTC time> <LEVEL> <message> [key=value ...]`, the public URL on a line of its own inside a box
 * (`2026-08-14T09:12:03Z INF |  https://<name>.trycloudflare.com  |`). Each line is read on its own,
 * so a change of layout (box or not) does not hide the URL; a URL of Cloudflare's API
 * (`https://api.trycloudflare.com/tunnel` in an error) or one followed by a path is not the tunnel's.
 */

export interface QuickTunnelLog {
  /** `https://<name>.trycloudflare.com`, once a line has named it. */
  readonly publicOrigin?: string;
  /** A tunnel connection registered with Cloudflare's edge. */
  readonly registered: boolean;
  /** Cloudflare refused to create the quick tunnel with HTTP 429 (too many from this address). */
  readonly rateLimited: boolean;
  /** The message of the last error line (ERR or FTL, or an unstructured line), for a failure message. */
  readonly lastError?: string;
  /** The message of the last non-empty line. */
  readonly lastLine?: string;
}

export const EMPTY_LOG: QuickTunnelLog = { registered: false, rateLimited: false };

/** Terminal colours, which cloudflared writes only to a terminal; removed all the same. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched
const ANSI = /\u001b\[[0-9;]*m/g;
const LEVELED = /^\S+\s+(DBG|INF|WRN|ERR|FTL)\s+(.*)$/;
const TUNNEL_URL = /https:\/\/((?!api\.)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)\.trycloudflare\.com(?![\w./:-])/i;

/** `line` (one line of stderr, without its end) taken into account. */
export function readLogLine(log: QuickTunnelLog, line: string): QuickTunnelLog {
  const text = line.replace(ANSI, '').trim();
  if (text === '') return log;
  const [, level, message = text] = LEVELED.exec(text) ?? [];
  const name = TUNNEL_URL.exec(message)?.[1]?.toLowerCase();
  return {
    publicOrigin: log.publicOrigin ?? (name && `https://${name}.trycloudflare.com`),
    registered: log.registered || /^Registered tunnel connection\b/.test(message),
    // Cloudflare's error 1015 is its rate limit; the line carries the status too, when fields are kept.
    rateLimited:
      log.rateLimited || /\b429 Too Many Requests\b|status_code="?429\b|\berror code: 1015\b/.test(message),
    lastError: level === undefined || level === 'ERR' || level === 'FTL' ? message : log.lastError,
    lastLine: message,
  };
}
