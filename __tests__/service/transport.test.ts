import { requestHost } from '../../src/service/transport.js';

describe('requestHost: what Node gets as the host of a URL', () => {
  test.each([
    ['[::1]', '::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['[fe80::1%25eth0]', 'fe80::1%25eth0'],
    ['tests.example.com', 'tests.example.com'],
    ['127.0.0.1', '127.0.0.1'],
  ])('%s -> %s', (host, expected) => {
    expect(requestHost(host)).toBe(expected);
  });

  test('the host http-client takes from a URL (URL.hostname, in brackets) comes out bare', () => {
    const { hostname } = new URL('https://[2001:db8::1]:8443/api');
    expect(hostname).toBe('[2001:db8::1]');
    expect(requestHost(hostname)).toBe('2001:db8::1');
  });
});
