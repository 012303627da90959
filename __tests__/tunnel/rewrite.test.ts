import { rewriteTunnelUrls, untunnelledLoopbackUrls } from '../../src/tunnel/rewrite.js';

const PUBLIC = 'https://seasonal-deck-organisms-sf.trycloudflare.com';
const OTHER_PUBLIC = 'https://quiet-river-lamp-ok.trycloudflare.com';
const tunnels = new Map([
  ['http://localhost:3000', PUBLIC],
  ['https://127.0.0.1:4443', OTHER_PUBLIC],
]);

describe('rewriteTunnelUrls', () => {
  test('sends every URL of a tunnelled origin to its public origin, keeping path, query and fragment', () => {
    const options = {
      retries: 1,
      urlReplacements: [
        { original: 'https://www.example.com', replacement: 'http://localhost:3000' },
        { original: 'https://api.example.com', replacement: 'http://127.0.0.1:3000/api/v2?x=1&y=%20#frag' },
        { original: 'https://admin.example.com', replacement: 'https://localhost:4443/admin' },
        { original: 'https://cdn.example.com', replacement: 'https://cdn.staging.example.com' },
      ],
      variableOverrides: {
        BASE_URL: 'http://[::1]:3000/',
        SECRET_URL: { value: 'http://localhost:3000/login?next=/home', sensitive: true },
        ENDPOINTS: {
          value: { api: 'HTTP://LOCALHOST:3000/api', list: ['http://localhost:3000/a', 42], n: 1 },
        },
        OTHER_PORT: 'http://localhost:3001/',
        NOT_A_URL: 'localhost:3000',
        WITH_USER: 'http://bot@localhost:3000/x',
      },
    };
    const rewritten = rewriteTunnelUrls(options, tunnels);
    expect(rewritten).toEqual({
      retries: 1,
      urlReplacements: [
        { original: 'https://www.example.com', replacement: PUBLIC },
        { original: 'https://api.example.com', replacement: `${PUBLIC}/api/v2?x=1&y=%20#frag` },
        { original: 'https://admin.example.com', replacement: `${OTHER_PUBLIC}/admin` },
        { original: 'https://cdn.example.com', replacement: 'https://cdn.staging.example.com' },
      ],
      variableOverrides: {
        BASE_URL: `${PUBLIC}/`,
        SECRET_URL: { value: `${PUBLIC}/login?next=/home`, sensitive: true },
        ENDPOINTS: { value: { api: `${PUBLIC}/api`, list: [`${PUBLIC}/a`, 42], n: 1 } },
        OTHER_PORT: 'http://localhost:3001/',
        NOT_A_URL: 'localhost:3000',
        WITH_USER: 'https://bot@seasonal-deck-organisms-sf.trycloudflare.com/x',
      },
    });
    // The input is left as it was.
    expect(options.urlReplacements[0]?.replacement).toBe('http://localhost:3000');
  });

  test('every spelling of the local origin is rewritten as a URL parser reads it; a WebSocket URL becomes wss://', () => {
    const spellings = {
      TRAILING_DOT: 'http://localhost.:3000/a',
      MAPPED: 'http://[::ffff:127.0.0.1]:3000/a',
      UNSPECIFIED: 'http://0.0.0.0:3000/a',
      HEX: 'http://0x7f.0.0.1:3000/a',
      SOCKET: 'ws://localhost:3000/a',
      // A parser reads the backslash as a path separator: the host is localhost, not x.example.
      BACKSLASH: 'http://localhost:3000\\@x.example/a',
    };
    const rewritten = rewriteTunnelUrls({ variableOverrides: spellings }, tunnels);
    expect(rewritten.variableOverrides).toEqual({
      TRAILING_DOT: `${PUBLIC}/a`,
      MAPPED: `${PUBLIC}/a`,
      UNSPECIFIED: `${PUBLIC}/a`,
      HEX: `${PUBLIC}/a`,
      SOCKET: `${PUBLIC.replace('https:', 'wss:')}/a`,
      BACKSLASH: `${PUBLIC}/@x.example/a`,
    });
    expect(untunnelledLoopbackUrls({ variableOverrides: spellings }, [])).toHaveLength(6);
  });

  test('a scheme other than the tunnel’s is another origin', () => {
    const options = {
      urlReplacements: [{ original: 'https://a.example', replacement: 'https://localhost:3000/' }],
    };
    expect(rewriteTunnelUrls(options, tunnels)).toEqual(options);
  });

  test('no override name is special, not even __proto__', () => {
    const options = JSON.parse(
      '{"variableOverrides": {"__proto__": "http://localhost:3000/p", "constructor": {"value": {"__proto__": "http://localhost:3000/q"}}}}',
    ) as Record<string, unknown>;
    const rewritten = rewriteTunnelUrls(options, tunnels);
    const overrides = rewritten.variableOverrides as Record<string, unknown>;
    expect(Object.getPrototypeOf(overrides)).toBe(Object.prototype);
    expect(Object.keys(overrides)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(rewritten)).toBe(
      `{"variableOverrides":{"__proto__":"${PUBLIC}/p","constructor":{"value":{"__proto__":"${PUBLIC}/q"}}}}`,
    );
  });

  test('options without URLs come back equal', () => {
    expect(rewriteTunnelUrls({ retries: 2 }, tunnels)).toEqual({ retries: 2 });
    expect(rewriteTunnelUrls({ variableOverrides: {}, urlReplacements: [] }, new Map())).toEqual({
      variableOverrides: {},
      urlReplacements: [],
    });
  });
});

describe('untunnelledLoopbackUrls', () => {
  test('lists each loopback URL with no tunnel for its origin, and where it is', () => {
    const options = JSON.parse(`{
      "urlReplacements": [
        {"original": "https://www.example.com", "replacement": "http://127.0.0.1:3000/x"},
        {"original": "https://api.example.com", "replacement": "http://localhost:8080"},
        {"original": "https://b.example.com", "replacement": "https://staging.example.com"}
      ],
      "variableOverrides": {
        "A": "http://[::1]:3000",
        "__proto__": {"value": {"urls": ["http://127.0.0.2:3000", "x"]}, "sensitive": true},
        "C": "postgres://localhost:5432/db"
      }
    }`) as Record<string, unknown>;
    expect(untunnelledLoopbackUrls(options, ['http://localhost:3000'])).toEqual([
      { path: ['urlReplacements', 1, 'replacement'], url: 'http://localhost:8080' },
      { path: ['variableOverrides', '__proto__', 'value', 'urls', 0], url: 'http://127.0.0.2:3000' },
    ]);
    expect(untunnelledLoopbackUrls(options, [])).toHaveLength(4);
  });
});
