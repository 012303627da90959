import { originKey } from '../../src/service/loopback.js';
import { shown } from '../../src/service/validation.js';
import { parseTunnelOrigins } from '../../src/tunnel/origin.js';

describe('one tunnel entry', () => {
  test.each([
    ['http://localhost:3000', 'http://localhost:3000'],
    ['HTTP://LocalHost:3000/', 'http://localhost:3000'],
    ['  https://127.0.0.1:8443  ', 'https://127.0.0.1:8443'],
    ['http://127.1.2.3:8080', 'http://127.1.2.3:8080'],
    ['http://[::1]:5173', 'http://[::1]:5173'],
    ['http://[0:0:0:0:0:0:0:1]:5173', 'http://[::1]:5173'],
    ['http://localhost:80', 'http://localhost'],
    ['http://0.0.0.0:3000', 'http://0.0.0.0:3000'],
    ['http://app.localhost.:3000', 'http://app.localhost.:3000'],
    ['https://localhost', 'https://localhost'],
  ])('%s is the origin %s', (text, origin) => {
    expect(parseTunnelOrigins([text])).toEqual({ ok: true, origins: [origin] });
  });

  test.each([
    ['localhost:3000', 'is not an http:// or https:// URL such as http://localhost:3000.'],
    ['ftp://localhost:21', 'is not an http:// or https:// URL such as http://localhost:3000.'],
    ['', 'is not an http:// or https:// URL such as http://localhost:3000.'],
    [
      'http://app.internal:3000',
      'is not on this runner: a tunnel reaches localhost, 127.0.0.0/8 or [::1] only, not app.internal.',
    ],
    [
      'http://10.0.0.5:3000',
      'is not on this runner: a tunnel reaches localhost, 127.0.0.0/8 or [::1] only, not 10.0.0.5.',
    ],
    ['http://user:pw@localhost:3000', 'must not carry credentials.'],
    [
      'http://localhost:3000/app',
      'must be an origin only (scheme, host and port, e.g. http://localhost:3000): the path, query or fragment belongs in the URLs of the options.',
    ],
    [
      'http://localhost:3000/?x=1',
      'must be an origin only (scheme, host and port, e.g. http://localhost:3000): the path, query or fragment belongs in the URLs of the options.',
    ],
    [
      'http://localhost:3000#top',
      'must be an origin only (scheme, host and port, e.g. http://localhost:3000): the path, query or fragment belongs in the URLs of the options.',
    ],
  ])('%s is refused: %s', (text, reason) => {
    expect(parseTunnelOrigins([text])).toEqual({ ok: false, reason: `${shown(text)} ${reason}` });
  });
});

describe('parseTunnelOrigins', () => {
  test('normalises every entry', () => {
    expect(parseTunnelOrigins(['http://localhost:3000/', 'https://127.0.0.1:4000'])).toEqual({
      ok: true,
      origins: ['http://localhost:3000', 'https://127.0.0.1:4000'],
    });
  });

  test('names the first entry refused', () => {
    expect(parseTunnelOrigins(['http://localhost:3000', 'http://example.com'])).toEqual({
      ok: false,
      reason:
        "'http://example.com' is not on this runner: a tunnel reaches localhost, 127.0.0.0/8 or [::1] only, not example.com.",
    });
  });

  test('refuses one origin named twice, under another of its names', () => {
    expect(parseTunnelOrigins(['http://localhost:3000', 'http://[::1]:3000/'])).toEqual({
      ok: false,
      reason: "'http://localhost:3000' and 'http://[::1]:3000' are the same origin: name it once.",
    });
  });
});

describe('originKey', () => {
  test('localhost, 127.0.0.1 and [::1] with one scheme and port are one origin', () => {
    const keys = [
      'http://localhost:3000',
      'http://127.0.0.1:3000/a?b#c',
      'http://[::1]:3000',
      'HTTP://LOCALHOST:3000',
    ].map(originKey);
    expect(new Set(keys)).toEqual(new Set(['http://localhost:3000']));
  });

  test('another port, scheme or loopback address is another origin; a default port is written out', () => {
    expect(originKey('http://localhost:3001')).toBe('http://localhost:3001');
    expect(originKey('https://localhost:3000')).toBe('https://localhost:3000');
    expect(originKey('http://127.0.0.2:3000')).toBe('http://127.0.0.2:3000');
    expect(originKey('http://localhost')).toBe('http://localhost:80');
    expect(originKey('https://127.0.0.1')).toBe('https://localhost:443');
  });

  test('no key for what is not a web URL', () => {
    for (const text of ['localhost:3000', 'ftp://localhost:3000', 'just text', '']) {
      expect(originKey(text)).toBeUndefined();
    }
  });

  test('every spelling of this machine, as a URL parser reads it, is one origin, WebSockets included', () => {
    const spellings = [
      'http://localhost.:3000/',
      'http://[::ffff:127.0.0.1]:3000/',
      'http://0.0.0.0:3000/',
      'http://[::]:3000/',
      'ws://localhost:3000/socket',
      'http://0x7f.1:3000/',
      'http://2130706433:3000/',
      'http://localhost:3000\\@x.example/',
    ];
    expect(spellings.map(originKey)).toEqual(spellings.map(() => 'http://localhost:3000'));
  });
});
