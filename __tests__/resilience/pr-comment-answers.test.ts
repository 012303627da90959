import { runInProcess, virtualClock } from '../helpers/in-process.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  type Fault,
  type FaultRule,
  GitHubSimulator,
  pullRequestEnv,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { Simulator } from '../simulator/simulator.js';

/**
 * GitHub's answers follow the service's rules: capped while read, pages and redirects followed
 * within the API's origin only, and checked for their shape. A second GitHub simulator plays
 * another origin and records every request that reaches it, Authorization headers and all.
 */
const PR = SAMPLE_PULL_REQUEST;
let sim: Simulator;
let gh: GitHubSimulator;
let elsewhere: GitHubSimulator;
beforeEach(async () => {
  elsewhere = await GitHubSimulator.start();
});
afterEach(async () => {
  await sim?.stop();
  await gh?.stop();
  await elsewhere.stop();
});

async function comment(faults: FaultRule[]) {
  sim = await Simulator.start({
    project: { statuses: ['FAILED'], testCases: [{ title: 'a', status: 'FAILED' }] },
  });
  gh = await GitHubSimulator.start({ faults });
  const result = await runInProcess(
    projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, 'request-timeout': '2s' }),
    {
      clock: virtualClock(),
      env: pullRequestEnv(gh.url),
    },
  );
  return { result, comments: gh.comments(PR.owner, PR.repo, PR.number) };
}

const firstList = (fault: Fault): FaultRule[] => [{ operation: 'listComments', requests: [1], fault }];
const otherPage = () => `${elsewhere.url}/repositories/1/issues/7/comments?per_page=100&page=2`;

/** No JavaScript error reaches the user: words only. */
const JS_ERROR = /is not iterable|undefined|TypeError|Cannot read|Unexpected token/;

describe('the comment list', () => {
  test.each([
    [
      'a page that is not JSON',
      { kind: 'text', text: '<html>Sign in to the Wi-Fi</html>' },
      "GitHub's answer does not match its API: the answer must be a list of {id: number, html_url: string, body?: string, user?: {id?: number, login?: string}}; got a string.",
    ],
    [
      'an object, not a list',
      { kind: 'status', status: 200, body: { message: 'Moved' } },
      "GitHub's answer does not match its API: the answer must be a list of {id: number, html_url: string, body?: string, user?: {id?: number, login?: string}}; got an object.",
    ],
    [
      'comments with fields of the wrong type',
      { kind: 'status', status: 200, body: [{ id: '12', html_url: 5, body: 'x' }] },
      "GitHub's answer does not match its API: field '[0].id' must be a number; got a string. field '[0].html_url' must be a string; got a number.",
    ],
    [
      'an answer that never ends',
      { kind: 'endless' },
      'the answer was larger than 64 MiB, so reading stopped there.',
    ],
  ] as const)('%s: one warning in words, the lookup failed, no comment is created', async (_, fault, why) => {
    const { result, comments } = await comment(firstList(fault));

    const warnings = annotations(result.log, 'warning');
    expect(warnings).toEqual([
      `::warning::Could not keep the pull request comment up to date. Could not list the comments of pull request #7 (page 1): ${why}`,
    ]);
    expect(warnings[0]).not.toMatch(JS_ERROR);
    expect(gh.count('listComments')).toBe(1);
    expect(comments).toEqual([]);
    expect(result.outputs).toMatchObject({ status: 'FAILED', 'comment-url': '' });
  });

  test('a next page at another origin: not read, the token stays home, one warning', async () => {
    const { result, comments } = await comment(firstList({ kind: 'link', next: otherPage() }));

    expect(elsewhere.requests).toEqual([]);
    expect(comments).toEqual([]);
    expect(annotations(result.log, 'warning')).toEqual([
      `::warning::Could not keep the pull request comment up to date. Could not list the comments of pull request #7 (page 2): ${otherPage()} is not the API's origin ${gh.origin}: the github-token goes to that origin only, so nothing was sent there.`,
    ]);
  });

  test('a redirect to another origin: not followed, the token stays home, one warning', async () => {
    const { result, comments } = await comment(
      firstList({ kind: 'redirect', status: 302, location: otherPage() }),
    );

    expect(elsewhere.requests).toEqual([]);
    expect(comments).toEqual([]);
    expect(annotations(result.log, 'warning')).toEqual([
      `::warning::Could not keep the pull request comment up to date. Could not list the comments of pull request #7 (page 1): GitHub answered HTTP 302, a redirect to ${otherPage()}, which is not the API's origin ${gh.origin}: the github-token goes to that origin only, so nothing was sent there.`,
    ]);
  });

  test('a redirect within the API origin is followed, with the token', async () => {
    const moved = '/repos/octo/shop/issues/7/comments?per_page=100&moved=1';
    const { comments } = await comment(firstList({ kind: 'redirect', status: 301, location: moved }));

    const lists = gh.requests.filter((request) => request.operation === 'listComments');
    expect(lists.map((request) => [request.path, request.headers.authorization])).toEqual([
      ['/repos/octo/shop/issues/7/comments?per_page=100', `token ${DEFAULT_TOKEN}`],
      [moved, `token ${DEFAULT_TOKEN}`],
      // after the create, for a comment another run wrote at the same time
      ['/repos/octo/shop/issues/7/comments?per_page=100', `token ${DEFAULT_TOKEN}`],
    ]);
    expect(comments).toHaveLength(1);
  });
});

describe('the answers to a write', () => {
  test('a create answered with a page, not the comment: one warning in words', async () => {
    const { result } = await comment([
      { operation: 'createComment', requests: [1], fault: { kind: 'text', text: '<html>Busy</html>' } },
    ]);

    const warnings = annotations(result.log, 'warning');
    expect(warnings).toEqual([
      "::warning::Could not keep the pull request comment up to date. Could not comment on pull request #7: GitHub's answer does not match its API: the answer must be an object {id: number, html_url: string, user?: {id?: number}}; got a string.",
    ]);
    expect(result.outputs['comment-url']).toBe('');
  });
});
