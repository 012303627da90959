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

  test('what http-client takes from a URL is what the mapping expects', () => {
    expect(new URL('https://[2001:db8::1]:8443/api').hostname).toBe('[2001:db8::1]');
  });
});
