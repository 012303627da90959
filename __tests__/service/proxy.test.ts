import { describeNetworkError } from '../../src/service/transport.js';

/**
 * How a proxy's refusal reads, from the errors http-client (through `tunnel`) and undici (for
 * Octokit) really throw; __tests__/simulator/proxy.test.ts pins http-client's, and
 * __tests__/dist/dist-proxy.test.ts sees both end to end.
 */
const SERVICE = 'https://tests.example.test/v1/projects/p/runs';
const tunnel = (rest: string) =>
  Object.assign(new Error(`tunneling socket could not be established, ${rest}`), { code: 'ECONNRESET' });
const undici = (status: number) =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), {
      code: 'UND_ERR_ABORTED',
    }),
  });

describe('a proxy refusal', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    for (const name of ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY']) {
      delete process.env[name];
    }
    process.env.https_proxy = 'http://ci-bot:s%40cret@proxy.corp.example:3128';
  });
  afterAll(() => {
    process.env = saved;
  });

  test('names the proxy without its credentials, the target, and the answer; a 407 says what to do', () => {
    expect(describeNetworkError(tunnel('statusCode=407'), SERVICE)).toMatchObject({
      kind: 'proxy',
      message:
        'the proxy http://proxy.corp.example:3128 refused the tunnel to tests.example.test:443 with HTTP 407 Proxy Authentication Required: give its user name and password in the proxy URL, as https_proxy=http://USER:PASSWORD@HOST:PORT (percent-encoded)',
      permanent: true,
    });
    expect(describeNetworkError(undici(407), 'https://api.github.com').message).toMatch(
      /^the proxy http:\/\/proxy\.corp\.example:3128 refused the tunnel to api\.github\.com:443 with HTTP 407 /,
    );
  });

  test.each([
    [403, 'Forbidden', true],
    [502, 'Bad Gateway', false],
    [503, 'Service Unavailable', false],
    [599, '', false],
  ])('%i: %s, permanent %s', (status, reason, permanent) => {
    for (const error of [tunnel(`statusCode=${status}`), undici(status)]) {
      expect(describeNetworkError(error, 'https://tests.example.test:8443/x')).toMatchObject({
        kind: 'proxy',
        message:
          `the proxy http://proxy.corp.example:3128 refused the tunnel to tests.example.test:8443 with HTTP ${status} ${reason}`.trim(),
        permanent,
      });
    }
  });

  test('a proxy that cannot be reached is named, with the cause, and may recover', () => {
    expect(describeNetworkError(tunnel('cause=connect ECONNREFUSED 10.0.0.1:3128'), SERVICE)).toMatchObject({
      kind: 'proxy',
      message:
        'could not connect to the proxy http://proxy.corp.example:3128 (connect ECONNREFUSED 10.0.0.1:3128)',
      permanent: false,
    });
  });

  test('any other error is not a tunnel failure', () => {
    for (const error of [
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      }),
      'tunneling socket could not be established, statusCode=407',
      undefined,
    ]) {
      expect(describeNetworkError(error, SERVICE).kind).toBe('network');
    }
  });

  test('as a transport error: it never reached the service, and only a recoverable one may be retried', () => {
    const refused = describeNetworkError(tunnel('statusCode=407'), SERVICE);
    expect(refused).toMatchObject({ kind: 'proxy', mayHaveReached: false, permanent: true });
    const down = describeNetworkError(tunnel('statusCode=502'), SERVICE);
    expect(down).toMatchObject({ kind: 'proxy', mayHaveReached: false, permanent: false });
  });
});
