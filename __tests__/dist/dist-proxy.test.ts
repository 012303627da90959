import { nodeBinaries, runDist } from '../helpers/dist-runner.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations, visibleLog } from '../helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { ConnectProxy } from '../simulator/proxy.js';
import { DEFAULT_API_KEY, type ProjectScript, Simulator } from '../simulator/simulator.js';
import { CA_CERT_PATH, CERT_HOSTS, IPV6_CERT_HOST, TEST_HOST, TlsFront } from '../simulator/tls-front.js';

/**
 * dist/index.js behind a real CONNECT proxy on 127.0.0.1. http-client never proxies loopback hosts,
 * so the service is https://tests.example.test: a name only the proxy knows (it routes the tunnel to
 * a TLS front of the simulator), with a certificate from a test CA the process trusts through
 * NODE_EXTRA_CA_CERTS, as a runner behind a corporate proxy would. A service that is not on
 * loopback is polled at most once a second.
 */
const BASE_URL = `https://${TEST_HOST}`;
const TARGET = `${TEST_HOST}:443`;
const USER = 'ci-bot';
const PASSWORD = 'p@ss:w/rd%41';
const PASSING: ProjectScript = {
  statuses: ['RUNNING', 'PASSED'],
  testCases: [{ title: 'login', status: 'PASSED' }],
};

describe.each(nodeBinaries())('dist/index.js through an HTTPS proxy, on $name', ({ bin }) => {
  let sim: Simulator;
  let front: TlsFront;
  let proxy: ConnectProxy;

  async function start(
    options: { credentials?: boolean; refuse?: number; refuseFirst?: number } = {},
  ): Promise<void> {
    sim = await Simulator.start({ project: PASSING });
    const simPort = Number(new URL(sim.url).port);
    front = await TlsFront.start({ target: { host: '127.0.0.1', port: simPort } });
    proxy = await ConnectProxy.start({
      routes: { [TARGET]: { host: '127.0.0.1', port: front.port } },
      credentials: options.credentials ? { username: USER, password: PASSWORD } : undefined,
      refuse: options.refuse,
      refuseFirst: options.refuseFirst,
    });
  }

  afterEach(async () => {
    await proxy?.stop();
    await front?.stop();
    await sim?.stop();
  });

  const inputs = (extra: Record<string, string> = {}) =>
    projectInputs(sim, { 'base-url': BASE_URL, 'poll-interval': '1s', timeout: '20s', ...extra });

  const run = (env: Record<string, string>, extra: Record<string, string> = {}) =>
    runDist(inputs(extra), { node: bin, env: { NODE_EXTRA_CA_CERTS: CA_CERT_PATH, ...env } });

  /** Everything a user could see: the log, the outputs, the state and the job summary. */
  const everything = (result: Awaited<ReturnType<typeof run>>) =>
    [
      result.stdout,
      result.stderr,
      JSON.stringify(result.outputs),
      JSON.stringify(result.state),
      result.summary,
    ].join('\n');

  test('https_proxy: every request goes through the proxy, and the run passes', async () => {
    await start();
    const result = await run({ https_proxy: proxy.url });
    expect(result.code).toBe(0);
    expect(result.outputs.success).toBe('true');
    expect(result.outputs.status).toBe('PASSED');
    const requests = sim.requests.length;
    expect(requests).toBeGreaterThanOrEqual(3);
    // keepAlive is off: one tunnel per request, each to the service's host.
    expect(proxy.connects.map((entry) => [entry.target, entry.status])).toEqual(
      Array.from({ length: requests }, () => [TARGET, 200]),
    );
    expect(front.connections.every((c) => c.servername === TEST_HOST && c.error === undefined)).toBe(true);
  });

  test('an IPv6 literal base-url through the proxy: the CONNECT target is [2001:db8::1]:8443, and the run passes', async () => {
    sim = await Simulator.start({ project: PASSING });
    front = await TlsFront.start({ target: { host: '127.0.0.1', port: Number(new URL(sim.url).port) } });
    const target = `[${IPV6_CERT_HOST}]:8443`;
    proxy = await ConnectProxy.start({ routes: { [target]: { host: '127.0.0.1', port: front.port } } });
    const result = await runDist(
      projectInputs(sim, {
        'base-url': `https://[${IPV6_CERT_HOST}]:8443`,
        'poll-interval': '1s',
        timeout: '20s',
      }),
      { node: bin, env: { NODE_EXTRA_CA_CERTS: CA_CERT_PATH, https_proxy: proxy.url } },
    );
    expect(proxy.connects.map((entry) => [entry.target, entry.status])[0]).toEqual([target, 200]);
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true' });
    expect(front.connections.every((c) => c.error === undefined)).toBe(true);
  });

  test('HTTPS_PROXY with credentials in the URL: they are used, and never shown', async () => {
    await start({ credentials: true });
    const result = await run({ HTTPS_PROXY: proxy.urlWithCredentials(USER, PASSWORD) });
    expect(result.code).toBe(0);
    expect(result.outputs.success).toBe('true');
    expect(proxy.connects.length).toBe(sim.requests.length);
    expect(proxy.connects.every((entry) => entry.auth === 'valid' && entry.username === USER)).toBe(true);
    const seen = everything(result);
    expect(seen).not.toContain(PASSWORD);
    expect(seen).not.toContain(encodeURIComponent(PASSWORD));
  });

  test('no_proxy names the service: the proxy is bypassed (and the name, which only it knows, does not resolve)', async () => {
    await start();
    const result = await run(
      { https_proxy: proxy.url, no_proxy: `example.org,${TEST_HOST}` },
      { timeout: '2s' },
    );
    expect(proxy.requests).toEqual([]);
    expect(sim.requests).toEqual([]);
    expect(result.code).toBe(1);
    // What the resolver says about a name it cannot find (ENOTFOUND, EAI_AGAIN, or no answer in time) varies by machine.
    const [error, ...more] = annotations(result.stdout, 'error');
    expect(more).toEqual([]);
    expect(error).toMatch(/^::error::Could not start a project run for project 'proj-1': /);
    expect(error).not.toMatch(/proxy/);
  });

  test.each([
    ['wrong credentials', () => proxy.urlWithCredentials(USER, 'not-the-password')],
    ['no credentials', () => proxy.url],
  ])('407 with %s: the proxy is named, no retry, and nothing reached the service', async (_, proxyUrl) => {
    await start({ credentials: true });
    const result = await run({ https_proxy: proxyUrl() });
    expect(result.code).toBe(1);
    expect(result.outputs.status).toBe('ERROR');
    expect(result.outputs.success).toBe('false');
    expect(proxy.connects.map((entry) => entry.status)).toEqual([407]);
    expect(sim.requests).toEqual([]);
    expect(annotations(result.stdout, 'error')).toEqual([
      `::error::Could not start a project run for project 'proj-1': the proxy ${proxy.url} refused the tunnel to ${TARGET} with HTTP 407 Proxy Authentication Required: give its user name and password in the proxy URL, as https_proxy=http://USER:PASSWORD@HOST:PORT (percent-encoded).`,
    ]);
    const seen = visibleLog(everything(result));
    expect(seen).not.toMatch(/may have started/);
    expect(seen).not.toContain('not-the-password');
    expect(seen).not.toContain(DEFAULT_API_KEY);
  });

  test('502 from the proxy is retried; the error names the proxy once the time-out runs out', async () => {
    await start({ refuse: 502 });
    const result = await run({ https_proxy: proxy.url }, { timeout: '2s' });
    expect(result.code).toBe(1);
    expect(proxy.connects.length).toBeGreaterThan(1);
    expect(proxy.connects.every((entry) => entry.status === 502)).toBe(true);
    expect(sim.requests).toEqual([]);
    expect(annotations(result.stdout, 'error')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Could not start a project run for project 'proj-1': the proxy ${proxy.url} refused the tunnel to ${TARGET} with HTTP 502 Bad Gateway \\(gave up after \\d+ attempts over ([\\d.]+ s|\\d+ ms)\\)\\.$`,
        ),
      ),
    ]);
    expect(visibleLog(result.stdout)).toMatch(
      /Could not start a project run for project 'proj-1' \(the proxy .* 502 Bad Gateway\); attempt 2 in/,
    );
  });

  test('a proxy that answers 502 and then recovers: the start is retried, and the run passes', async () => {
    await start({ refuse: 502, refuseFirst: 2 });
    const result = await run({ https_proxy: proxy.url });
    expect(result.code).toBe(0);
    expect(result.outputs.status).toBe('PASSED');
    expect(proxy.connects.slice(0, 3).map((entry) => entry.status)).toEqual([502, 502, 200]);
    // The refused attempts never reached the service: one run, started once.
    expect(sim.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  test('403 from the proxy (its policy forbids the host) is not retried', async () => {
    await start({ refuse: 403 });
    const result = await run({ https_proxy: proxy.url });
    expect(result.code).toBe(1);
    expect(proxy.connects.map((entry) => entry.status)).toEqual([403]);
    expect(annotations(result.stdout, 'error')).toEqual([
      `::error::Could not start a project run for project 'proj-1': the proxy ${proxy.url} refused the tunnel to ${TARGET} with HTTP 403 Forbidden.`,
    ]);
  });

  test('a certificate the runner does not trust: the TLS error is named at once, and not retried', async () => {
    await start();
    // Without NODE_EXTRA_CA_CERTS the test CA is unknown, as a proxy that re-signs TLS would be.
    const result = await runDist(inputs(), { node: bin, env: { https_proxy: proxy.url } });
    expect(result.code).toBe(1);
    expect(proxy.connects.map((entry) => entry.status)).toEqual([200]);
    expect(sim.requests).toEqual([]);
    expect(annotations(result.stdout, 'error')).toEqual([
      "::error::Could not start a project run for project 'proj-1': TLS error UNABLE_TO_VERIFY_LEAF_SIGNATURE: the service's certificate was not accepted.",
    ]);
  });

  test('a proxy that is not listening is named, and retried like a refused connection', async () => {
    await start();
    const unreachable = proxy.url;
    await proxy.stop();
    const result = await run({ https_proxy: unreachable }, { timeout: '2s' });
    expect(result.code).toBe(1);
    expect(sim.requests).toEqual([]);
    expect(annotations(result.stdout, 'error')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error::Could not start a project run for project 'proj-1': could not connect to the proxy ${unreachable} \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\) \\(gave up after \\d+ attempts over ([\\d.]+ s|\\d+ ms)\\)\\.$`,
        ),
      ),
    ]);
  });
});

describe.each(nodeBinaries())(
  'the pull request comment through an HTTPS proxy, dist/index.js on $name',
  ({ bin }) => {
    // GitHub's API at the other name of the test certificate, also known only to the proxy.
    const GITHUB_HOST = CERT_HOSTS[1];
    const GITHUB_TARGET = `${GITHUB_HOST}:443`;
    const PR = SAMPLE_PULL_REQUEST;
    const stopped: { stop(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const server of stopped.splice(0).reverse()) await server.stop();
    });

    /**
     * `untrustedGitHub`: the service is reached directly on loopback, and GitHub through the proxy
     * with a certificate the process does not trust (no NODE_EXTRA_CA_CERTS).
     */
    async function start(
      options: { refuseTargets?: Record<string, number>; untrustedGitHub?: boolean } = {},
    ) {
      const { refuseTargets, untrustedGitHub = false } = options;
      const sim = await Simulator.start({ project: PASSING });
      const gh = await GitHubSimulator.start();
      const front = (url: string) =>
        TlsFront.start({ target: { host: '127.0.0.1', port: Number(new URL(url).port) } });
      const simFront = await front(sim.url);
      const ghFront = await front(gh.url);
      const proxy = await ConnectProxy.start({
        routes: {
          [TARGET]: { host: '127.0.0.1', port: simFront.port },
          [GITHUB_TARGET]: { host: '127.0.0.1', port: ghFront.port },
        },
        refuseTargets,
      });
      stopped.push(sim, gh, simFront, ghFront, proxy);
      const eventFile = pullRequestEventFile(PR);
      const result = await runDist(
        projectInputs(sim, {
          ...(untrustedGitHub ? {} : { 'base-url': BASE_URL }),
          'poll-interval': '1s',
          'pr-comment': 'always',
          'github-token': DEFAULT_TOKEN,
        }),
        {
          node: bin,
          env: {
            ...(untrustedGitHub ? {} : { NODE_EXTRA_CA_CERTS: CA_CERT_PATH }),
            https_proxy: proxy.url,
            GITHUB_EVENT_NAME: 'pull_request',
            GITHUB_EVENT_PATH: eventFile,
            GITHUB_API_URL: `https://${GITHUB_HOST}`,
            GITHUB_HEAD_REF: PR.headRef,
          },
        },
      );
      return { result, proxy, comments: gh.comments(PR.owner, PR.repo, PR.number) };
    }

    test('Octokit goes through the proxy too: the comment is created', async () => {
      const { result, proxy, comments } = await start();
      expect(result.code).toBe(0);
      expect(comments).toHaveLength(1);
      expect(result.outputs['comment-url']).toBe(comments[0]?.html_url);
      expect(proxy.connects.filter((entry) => entry.target === GITHUB_TARGET).length).toBeGreaterThanOrEqual(
        1,
      );
      expect(annotations(result.stdout, 'warning')).toEqual([]);
    });

    test("a proxy that forbids GitHub's API: one warning names it, and the run still passes", async () => {
      const { result, proxy, comments } = await start({ refuseTargets: { [GITHUB_TARGET]: 403 } });
      expect(result.code).toBe(0);
      expect(result.outputs.success).toBe('true');
      expect(comments).toEqual([]);
      // Once per task, never retried: the commit's check runs (listed once for the step), the base
      // branch's result, the comment (each a line but the comment's warning).
      expect(
        proxy.connects.filter((entry) => entry.target === GITHUB_TARGET).map((entry) => entry.status),
      ).toEqual([403, 403, 403]);
      expect(annotations(result.stdout, 'warning')).toEqual([
        expect.stringContaining(
          `the proxy ${proxy.url} refused the tunnel to ${GITHUB_TARGET} with HTTP 403 Forbidden.`,
        ),
      ]);
    });

    test("GitHub's certificate not trusted: one warning names the TLS error at once, with no retry", async () => {
      const { result, proxy, comments } = await start({ untrustedGitHub: true });
      expect(result.code).toBe(0);
      expect(result.outputs.success).toBe('true');
      expect(comments).toEqual([]);
      // Once per task, never retried (as above).
      const once = [GITHUB_TARGET, 200];
      expect(proxy.connects.map((entry) => [entry.target, entry.status])).toEqual([once, once, once]);
      expect(annotations(result.stdout, 'warning')).toEqual([
        expect.stringContaining(
          "TLS error UNABLE_TO_VERIFY_LEAF_SIGNATURE: GitHub's certificate was not accepted.",
        ),
      ]);
    });
  },
);
