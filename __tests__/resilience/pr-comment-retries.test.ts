import { runInProcess, virtualClock } from '../helpers/in-process.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  type FaultRule,
  GitHubSimulator,
  pullRequestEnv,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { Simulator } from '../simulator/simulator.js';

/** The comment's requests go through the one retry mechanism, with GitHub's own rules. */
const PR = SAMPLE_PULL_REQUEST;
let sim: Simulator;
let gh: GitHubSimulator;
afterEach(async () => {
  await sim?.stop();
  await gh?.stop();
});

interface CommentCase {
  /** A comment already on the pull request. */
  seed?: string;
  /** The token GitHub accepts; default the one the step is given. */
  token?: string;
  /** The run's status; default FAILED, with one failing test case. */
  status?: 'FAILED' | 'PASSED';
}

async function comment(
  faults: FaultRule[],
  { seed, token, status = 'FAILED' }: CommentCase = {},
  clock = virtualClock(),
) {
  sim = await Simulator.start({
    project: { statuses: [status], testCases: [{ title: 'a', status }] },
  });
  gh = await GitHubSimulator.start({ faults, ...(token === undefined ? {} : { token }) });
  if (seed) gh.seedComments(PR.owner, PR.repo, PR.number, [{ body: seed }]);
  // A request GitHub holds (hang) is cut once its request-timeout (300 ms) passes on the step's clock.
  for (const { operation, fault, requests } of faults) {
    if (fault.kind !== 'hang' || !Array.isArray(requests)) continue;
    for (const n of requests) void gh.waitForRequests(operation, n).then(() => clock.advance(300));
  }
  const result = await runInProcess(
    projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, 'request-timeout': '300ms' }),
    {
      clock,
      env: pullRequestEnv(gh.url),
    },
  );
  return { result, clock, comments: gh.comments(PR.owner, PR.repo, PR.number) };
}

const MARKER = '<!-- test-run-action mode=project project=proj-1 -->';

describe('listing and updating are retried on network errors, 429 and 5xx', () => {
  test('502, then a reset, then the list: the comment is written', async () => {
    const { result, comments } = await comment([
      { operation: 'listComments', requests: [1], fault: { kind: 'status', status: 502 } },
      { operation: 'listComments', requests: [2], fault: { kind: 'reset' } },
    ]);
    // the fourth after the create, for a comment another run wrote at the same time
    expect(gh.count('listComments')).toBe(4);
    expect(comments).toHaveLength(1);
    expect(result.log).toMatch(
      /Could not list the comments of pull request #7 \(page 1\) \(HTTP 502\); attempt 2 in/,
    );
    expect(annotations(result.log, 'warning')).toEqual([]);
  });

  test('Retry-After is honoured', async () => {
    const { clock, comments } = await comment([
      { operation: 'listComments', requests: [1], fault: { kind: 'status', status: 429, retryAfter: '7' } },
    ]);
    expect(clock.slept).toContain(7000);
    expect(comments).toHaveLength(1);
  });

  test('a list that never answers is cut by request-timeout and tried again', async () => {
    const { comments } = await comment([
      { operation: 'listComments', requests: [1], fault: { kind: 'hang' } },
    ]);
    expect(gh.count('listComments')).toBe(3); // the third after the create
    expect(comments).toHaveLength(1);
  });

  test('an update answered 500 is sent again: it is idempotent', async () => {
    const { result, comments } = await comment(
      [{ operation: 'updateComment', requests: [1], fault: { kind: 'status', status: 500 } }],
      { seed: MARKER },
    );
    expect(gh.count('updateComment')).toBe(2);
    expect(comments).toHaveLength(1);
    expect(result.outputs['comment-url']).toBe(comments[0]?.html_url);
  });

  test('an outage longer than the comment’s budget ends in one warning, the step’s result untouched', async () => {
    const { result, clock } = await comment([
      { operation: 'listComments', requests: 'all', fault: { kind: 'status', status: 503 } },
    ]);
    expect(clock.slept.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(30_000);
    expect(annotations(result.log, 'warning')).toEqual([
      expect.stringMatching(/Could not list the comments of pull request #7 \(page 1\): HTTP 503/),
    ]);
    expect(result.outputs).toMatchObject({ status: 'FAILED', 'comment-url': '' });
  });
});

describe('creating is retried only when GitHub cannot have created the comment', () => {
  test('429, and a secondary rate limit (403 with no quota left): refused, so sent again', async () => {
    // GitHub's reset time is read on the step's clock: 3 s after its now.
    const clock = virtualClock(undefined, Date.parse('2030-01-01T00:00:00Z'));
    const reset = clock.now() / 1000 + 3;
    const { comments } = await comment(
      [
        {
          operation: 'createComment',
          requests: [1],
          fault: { kind: 'status', status: 429, retryAfter: '1' },
        },
        {
          operation: 'createComment',
          requests: [2],
          fault: {
            kind: 'status',
            status: 403,
            rateLimitReset: reset,
            body: { message: 'You have exceeded a secondary rate limit.' },
          },
        },
      ],
      {},
      clock,
    );
    expect(gh.count('createComment')).toBe(3);
    expect(comments).toHaveLength(1);
    // 1 s for the 429, then until the reset: 3 s after the start, 1 s of which had passed.
    expect(clock.slept).toEqual([1000, 2000]);
  });

  test.each([
    ['a reset', { kind: 'reset' } as const, /network error/],
    ['a 502', { kind: 'status', status: 502 } as const, /HTTP 502/],
    ['a 503', { kind: 'status', status: 503 } as const, /HTTP 503/],
  ])('%s: GitHub may have created it, so it is not sent again; one warning', async (_name, fault, reason) => {
    const { result } = await comment([{ operation: 'createComment', requests: [1], fault }]);
    expect(gh.count('createComment')).toBe(1);
    const warnings = annotations(result.log, 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(reason);
  });

  test('a wrong token: 401 said once, no retry', async () => {
    const { result } = await comment([], { token: 'another-token', status: 'PASSED' });
    expect(gh.count('listComments')).toBe(1);
    expect(result.exitCode).toBe(0);
    expect(annotations(result.log, 'warning')).toEqual([expect.stringMatching(/HTTP 401: Bad credentials/)]);
  });
});
