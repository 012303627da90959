/**
 * cloudflared's stderr is a log, not an API (`<UTC time> <LEVEL> <message> [key=value ...]`, the URL
 * in a box): each line is read on its own, so that a change of layout does not hide the URL.
 */
export interface QuickTunnelLog {
  readonly publicOrigin?: string;
  readonly registered: boolean;
  readonly rateLimited: boolean;
  /** Of the last ERR, FTL or unstructured line. */
  readonly lastError?: string;
  readonly lastLine?: string;
}

export const EMPTY_LOG: QuickTunnelLog = { registered: false, rateLimited: false };

// Terminal colours, which cloudflared writes only to a terminal; removed all the same.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is matched
const ANSI = /\u001b\[[0-9;]*m/g;
const LEVELED = /^\S+\s+(DBG|INF|WRN|ERR|FTL)\s+(.*)$/;
// Not Cloudflare's API (`https://api.trycloudflare.com/tunnel` in an error), nor a URL with a path.
const TUNNEL_URL = /https:\/\/((?!api\.)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)\.trycloudflare\.com(?![\w./:-])/i;

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
