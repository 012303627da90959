import * as path from 'node:path';
import { readSettings } from '../src/inputs/settings.js';
import { isLoopbackHost } from '../src/service/loopback.js';

function reader(inputs: Record<string, string>) {
  const all: Record<string, string> = {
    'api-key': 'k',
    'base-url': 'https://tests.example.com',
    'project-id': 'p',
    ...inputs,
  };
  return (name: string) => all[name] ?? '';
}

describe('durations', () => {
  test.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['30', 30_000],
    ['1.5', 1500],
    [' 5s ', 5000],
    ['', 3_600_000], // the default
  ])('%p is %p ms', async (text, ms) => {
    expect((await readSettings(reader({ timeout: text }))).timeoutMs).toBe(ms);
  });

  test.each(['soon', '5 minutes', '-1s', '1d', 's', '1e3'])('%p is not a duration', async (text) => {
    await expect(readSettings(reader({ timeout: text }))).rejects.toThrow(
      "Input 'timeout' must be a positive duration",
    );
  });
});

describe('settings', () => {
  test.each([
    'localhost',
    'localhost.',
    'app.localhost',
    '127.0.0.1',
    '127.1.2.3',
    '[::1]',
    'LOCALHOST',
    '0x7f.1',
    '2130706433',
    '[::ffff:127.0.0.1]',
    '0.0.0.0',
    '[::]',
  ])('%s is loopback, as a URL parser reads it', (host) => {
    expect(isLoopbackHost(new URL(`http://${host}/`).hostname)).toBe(true);
  });

  test.each([
    'example.com',
    '10.0.0.1',
    '128.0.0.1',
    '127.0.0.1.example.com',
    '[::2]',
    'localhost.example',
    '[::ffff:10.0.0.1]',
  ])('%s is not', (host) => {
    expect(isLoopbackHost(new URL(`http://${host}/`).hostname)).toBe(false);
  });

  test('two targets with one check name are an input error: the name is the identity of a result', async () => {
    const inputs = { 'project-id': 'a\nb', 'check-name': 'E2E\nE2E' };
    await expect(readSettings(reader(inputs), {})).rejects.toThrow(
      "Input 'check-name' names 'E2E' twice: the check name is a target's identity, so each target needs its own.",
    );
    await expect(
      readSettings(reader({ ...inputs, 'check-name': 'E2E a\nE2E b' }), {}),
    ).resolves.toBeDefined();
  });

  test('base-url keeps its path prefix and loses its trailing slash', async () => {
    const settings = await readSettings(reader({ 'base-url': 'https://tests.example.com/api/' }), {});
    expect(settings.baseUrl).toBe('https://tests.example.com/api');
  });

  test('base-url with credentials is refused without echoing them', async () => {
    const settings = readSettings(reader({ 'base-url': 'https://user:hunter2@tests.example.com' }), {});
    await expect(settings).rejects.toThrow(/Input 'base-url' must not carry credentials/);
    await expect(settings).rejects.not.toThrow(/hunter2/);
  });

  test('defaults', async () => {
    const settings = await readSettings(reader({}), { RUNNER_TEMP: '/runner/temp', GITHUB_WORKSPACE: '/ws' });
    expect(settings).toMatchObject({
      targets: [{ target: { kind: 'project', projectId: 'p' } }],
      wait: true,
      pollIntervalMs: 5000,
      timeoutMs: 3_600_000,
      requestTimeoutMs: 30_000,
      cancelOnAbort: true,
      failOnFlaky: false,
      summary: true,
      resultsDir: '/runner/temp',
    });
    expect(settings.junitPath).toBeUndefined();
    expect(settings.targets[0]?.branch).toBeUndefined();
  });

  test('junit-report is relative to the workspace', async () => {
    const settings = await readSettings(reader({ 'junit-report': 'reports/e2e.xml' }), {
      GITHUB_WORKSPACE: '/ws',
    });
    expect(settings.junitPath).toBe(path.resolve('/ws', 'reports/e2e.xml'));
  });

  test('booleans are case-insensitive', async () => {
    const settings = await readSettings(reader({ wait: 'False', 'fail-on-flaky': 'TRUE' }), {});
    expect(settings).toMatchObject({ wait: false, failOnFlaky: true });
  });

  test('the pushed branch is used only for branch refs', async () => {
    const pushed = await readSettings(reader({}), { GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' });
    const tagged = await readSettings(reader({}), { GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1' });
    const pr = await readSettings(reader({}), { GITHUB_HEAD_REF: 'fix', GITHUB_REF_NAME: '12/merge' });
    expect([pushed, tagged, pr].map(({ targets }) => targets[0]?.branch)).toEqual(['main', undefined, 'fix']);
  });

  test.each([
    ['project-id', '..', "'..' is a path segment, not a name"],
    ['project-id', '.', "'.' is a path segment, not a name"],
    ['test-suite-id', 'suite\r::error::x', 'it holds a control, line-break or invisible character'],
    ['run-id', 'run\u200b1', 'it holds a control, line-break or invisible character'],
  ])('%s %j is an input error: %s', async (name, value, problem) => {
    const inputs = name === 'test-suite-id' ? { 'project-id': '', [name]: value } : { [name]: value };
    await expect(readSettings(reader(inputs), {})).rejects.toThrow(
      `Input '${name}' must be an id, and ${problem}`,
    );
  });

  test.each(['request-timeout', 'poll-interval', 'timeout'])(
    '%s past 24 days is an input error that says the limit (no timer may overflow and fire at once)',
    async (name) => {
      await expect(readSettings(reader({ [name]: '720h' }), {})).rejects.toThrow(
        `Input '${name}' must be at most 24 days (576h): Node's timers hold at most 2^31 - 1 ms; got '720h'.`,
      );
      await expect(readSettings(reader({ [name]: '576h' }), {})).resolves.toBeDefined();
    },
  );

  test.each([
    ['a zero-width space', 'sekrit\u200b'],
    ['a line break', 'sekrit\nmore'],
    ['a space', 'sekrit more'],
    ['a non-ASCII letter', 'sékrit'],
  ])('an api-key with %s is an input error, not echoed', async (_, key) => {
    const settings = readSettings(reader({ 'api-key': key }), {});
    await expect(settings).rejects.toThrow(
      /^Input 'api-key' holds a character that an HTTP header cannot carry \(at position \d+\)/,
    );
    await expect(settings).rejects.not.toThrow(/s[eé]krit/);
  });

  test('a github-token with a zero-width space is an input error, not echoed', async () => {
    const settings = readSettings(reader({ 'github-token': 'ghs_abc\u200b' }), {});
    await expect(settings).rejects.toThrow(/^Input 'github-token' holds a character/);
    await expect(settings).rejects.not.toThrow(/ghs_abc/);
  });

  test.each([
    'https://user:hunter2@tests.example.com:99999',
    'https://user:hunter2@tests example.com',
    'https://user:hunter2@tests.example.com',
  ])(
    'base-url %s with credentials is refused without echoing them, whether or not it parses',
    async (url) => {
      const settings = readSettings(reader({ 'base-url': url }), {});
      await expect(settings).rejects.toThrow(/Input 'base-url' must not carry credentials/);
      await expect(settings).rejects.not.toThrow(/hunter2/);
    },
  );

  test.each([
    ['reports/', path.join('reports', 'junit.xml')],
    ['reports\\', path.join('reports', 'junit.xml')],
    ['reports/e2e.xml', path.join('reports', 'e2e.xml')],
  ])('junit-report %j is written to %j in the workspace', async (input, file) => {
    const settings = await readSettings(reader({ 'junit-report': input }), { GITHUB_WORKSPACE: '/ws' });
    expect(settings.junitPath).toBe(path.resolve('/ws', file));
  });

  describe('quarantine', () => {
    test('the lines parsed: a pattern, and its last day where the line ends with until and a date', async () => {
      const text = 'Checkout *\n\n  Login until 2026-03-31  \nWaits until saved';
      const settings = await readSettings(reader({ quarantine: text }), {});
      expect(settings.quarantine).toEqual([
        { pattern: 'Checkout *' },
        { pattern: 'Login', until: '2026-03-31' },
        { pattern: 'Waits until saved' },
      ]);
    });

    test('none by default', async () => {
      expect(await readSettings(reader({}), {})).toMatchObject({ quarantine: [] });
    });

    test('a date that does not exist is an input error naming the line', async () => {
      await expect(
        readSettings(reader({ quarantine: 'Checkout *\nLogin until 2026-02-30' }), {}),
      ).rejects.toThrow(
        "Input 'quarantine' line 2, 'Login until 2026-02-30': the date after 'until' must be a day that exists",
      );
    });
  });

  describe('slowdown', () => {
    test.each([
      ['', { factor: 1.5, minMs: 5000 }], // the default
      ['1.5x 5s', { factor: 1.5, minMs: 5000 }],
      ['2x 500ms', { factor: 2, minMs: 500 }],
      ['1x 1m', { factor: 1, minMs: 60_000 }],
      ['3X 10', { factor: 3, minMs: 10_000 }],
      ['1.25 x  2 s', { factor: 1.25, minMs: 2000 }],
      ['2x 0s', { factor: 2, minMs: 0 }],
    ])('%p is %p', async (text, slowdown) => {
      expect((await readSettings(reader({ slowdown: text }), {})).slowdown).toEqual(slowdown);
    });

    test.each(['off', 'OFF', ' off '])('%p turns it off', async (text) => {
      const settings = await readSettings(reader({ slowdown: text }), {});
      expect(settings.slowdown).toBeUndefined();
    });

    test.each([
      '1.5x',
      '5s',
      '1.5',
      '0.5x 5s',
      '0x 5s',
      '-2x 5s',
      '1.5x 5 minutes',
      '1.5x -5s',
      '1.5x5s',
      'x 5s',
      '1e3x 5s',
      'on',
      '1.5x 5s 2',
    ])('%p is an input error naming slowdown, what it expects and what it got', async (text) => {
      await expect(readSettings(reader({ slowdown: text }), {})).rejects.toThrow(
        `Input 'slowdown' must be a factor of at least 1 and a duration, such as 1.5x 5s (at least 1.5 times the typical duration and at least 5s longer), or off; got '${text}'.`,
      );
    });
  });

  describe('tunnel', () => {
    const suite = (inputs: Record<string, string>) =>
      reader({ 'project-id': '', 'test-suite-id': 's', ...inputs });
    const replacing = (url: string) =>
      JSON.stringify({ urlReplacements: [{ original: 'https://www.example.com', replacement: url }] });

    test('origins, comma- or newline-separated, normalised; matching URLs may stay local', async () => {
      const settings = await readSettings(
        suite({
          tunnel: 'http://localhost:3000,\n HTTP://127.0.0.1:4000/ ',
          options: replacing('http://127.0.0.1:3000/a'),
        }),
        {},
      );
      expect(settings).toMatchObject({
        targets: [{ target: { tunnelOrigins: ['http://localhost:3000', 'http://127.0.0.1:4000'] } }],
      });
    });

    test.each([
      [
        { 'project-id': 'p', tunnel: 'http://localhost:3000' },
        "Input 'tunnel' applies to test suite runs only",
      ],
      [
        { 'test-suite-id': 's', wait: 'false', tunnel: 'http://localhost:3000' },
        "Input 'tunnel' cannot be used with 'wait: false'",
      ],
      [
        { mode: 'suite', 'run-id': 'r', tunnel: 'http://localhost:3000' },
        "Input 'tunnel' applies to a run this step starts",
      ],
      [
        { 'test-suite-id': 's', tunnel: 'http://app.internal:3000' },
        "Input 'tunnel': 'http://app.internal:3000' is not on this runner",
      ],
      [
        { 'test-suite-id': 's', tunnel: 'http://localhost:3000/app' },
        "Input 'tunnel': 'http://localhost:3000/app' must be an origin only",
      ],
      [
        { 'test-suite-id': 's', tunnel: 'http://localhost:3000, http://[::1]:3000' },
        'are the same origin: name it once.',
      ],
    ])('%j is an input error', async (inputs, message) => {
      await expect(readSettings(reader({ 'project-id': '', ...inputs }), {})).rejects.toThrow(message);
    });

    test('a loopback URL in the options with no tunnel for it is an input error that says why and names tunnel', async () => {
      await expect(
        readSettings(suite({ options: replacing('http://localhost:3000/checkout') }), {}),
      ).rejects.toThrow(
        "options.urlReplacements[0].replacement points at http://localhost:3000, on this runner, which the service cannot reach: it runs in the cloud. To test the app this job started, open a tunnel to it with the input 'tunnel: http://localhost:3000'.",
      );
      const override = JSON.stringify({
        variableOverrides: { BASE: { value: 'http://127.0.0.1:5000', sensitive: true } },
      });
      await expect(
        readSettings(suite({ tunnel: 'http://localhost:3000', options: override }), {}),
      ).rejects.toThrow('options.variableOverrides.BASE.value points at http://127.0.0.1:5000');
    });

    test.each([
      ['http://localhost.:3000/', 'http://localhost.:3000'],
      ['http://[::ffff:127.0.0.1]:3000/', 'http://[::ffff:7f00:1]:3000'],
      ['http://0.0.0.0:3000/', 'http://0.0.0.0:3000'],
      ['ws://localhost:3000/', 'http://localhost:3000'],
      ['http://localhost:3000\\@x.example/', 'http://localhost:3000'],
    ])('%s in the options with no tunnel is an input error too', async (url, tunnel) => {
      await expect(readSettings(suite({ options: replacing(url) }), {})).rejects.toThrow(
        `'tunnel: ${tunnel}'`,
      );
    });

    test('unless the service itself runs on this machine (a loopback base-url)', async () => {
      const settings = readSettings(
        suite({ 'base-url': 'http://127.0.0.1:8080', options: replacing('http://localhost:3000/checkout') }),
        {},
      );
      await expect(settings).resolves.toMatchObject({ targets: [{ target: { tunnelOrigins: [] } }] });
    });
  });
});
