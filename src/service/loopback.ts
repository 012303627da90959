/**
 * Whether a URL's host name (as URL.hostname gives it: an IPv6 literal in brackets) is this
 * machine's loopback: localhost, 127.0.0.0/8 or [::1].
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
