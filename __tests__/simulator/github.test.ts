import { getOctokit } from '@actions/github';
import { afterEach, describe, expect, it } from '@jest/globals';
import { eventually } from '../helpers/eventually.js';
import { runProcess } from '../helpers/process.js';
import { type ManualClock, manualClock } from '../helpers/virtual-clock.js';
import {
  type CheckRun,
  DEFAULT_BASE_SHA,
  DEFAULT_TOKEN,
  FIRST_WORKFLOW_RUN_ID,
  GITHUB_ACTIONS_APP,
  GITHUB_ACTIONS_BOT,
  type GitCommit,
  GitHubSimulator,
  HUMAN_USER,
  INSTALLATION_ID,
  type IssueComment,
  type Operation,
  OTHER_APP,
  pullRequestEvent,
  pullRequestEventFile,
  type Scenario,
  type SeedComment,
  type SimWorkflowRun,
} from './github.js';

const OWNER = 'octo-org';
const REPO = 'octo-repo';
const PR = 7;
const MARKER = '<!-- sticky-comment:e2e -->';

let sim: GitHubSimulator | undefined;

afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

/** With `clock`, the simulator's time and delays move only when the test advances it. */
async function startSim(scenario?: Scenario, clock?: ManualClock): Promise<GitHubSimulator> {
  sim = await GitHubSimulator.start(scenario, { clock });
  return sim;
}

function octokit(s: GitHubSimulator, token = DEFAULT_TOKEN) {
  return getOctokit(token, { baseUrl: s.url });
}

interface Answer {
  status: number;
  headers: Headers;
  json: unknown;
}

async function call(
  s: GitHubSimulator,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; auth?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.auth !== null) headers.authorization = options.auth ?? `token ${DEFAULT_TOKEN}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(s.url + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === '' ? undefined : JSON.parse(text) };
}

const commentsPath = (issue = PR, owner = OWNER, repo = REPO) =>
  `/repos/${owner}/${repo}/issues/${issue}/comments`;
const commentPath = (id: number | bigint, owner = OWNER, repo = REPO) =>
  `/repos/${owner}/${repo}/issues/comments/${id}`;

/** count comments; the one at markerAt carries the marker and is the bot's, the others are a human's. */
function seeds(count: number, markerAt = -1): SeedComment[] {
  return Array.from({ length: count }, (_, i) =>
    i === markerAt
      ? { body: `${MARKER}\nResults: 3 passed`, user: GITHUB_ACTIONS_BOT }
      : { body: `comment ${i + 1}`, user: HUMAN_USER },
  );
}

/** The error an Octokit call rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<{
  status: number;
  message: string;
  response?: { status: number; headers: Record<string, string | undefined>; data: unknown };
  cause?: unknown;
}> {
  try {
    await promise;
  } catch (error) {
    return error as never;
  }
  throw new Error('expected the call to fail');
}

describe('listing comments', () => {
  it("pages 250 comments with Octokit's paginate: all of them, in 3 requests that follow the Link headers", async () => {
    const s = await startSim({
      pullRequests: [{ owner: OWNER, repo: REPO, number: PR, comments: seeds(250, 180) }],
    });
    const all = await octokit(s).paginate(octokit(s).rest.issues.listComments, {
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      per_page: 100,
    });
    expect(all).toHaveLength(250);
    expect(all).toEqual(s.comments(OWNER, REPO, PR));
    const ids = all.map((c) => Number(c.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(250);
    const marked = all.filter((c) => c.body?.includes(MARKER));
    expect(marked).toHaveLength(1);
    expect(marked[0]?.user).toMatchObject({ login: 'github-actions[bot]', type: 'Bot' });
    expect(all[0]?.user).toMatchObject({ login: 'octocat', type: 'User' });

    const id = s.repositoryId(OWNER, REPO);
    expect(s.requests.map((r) => [r.operation, r.n, r.method, r.path])).toEqual([
      ['listComments', 1, 'GET', `/repos/${OWNER}/${REPO}/issues/${PR}/comments?per_page=100`],
      ['listComments', 2, 'GET', `/repositories/${id}/issues/${PR}/comments?per_page=100&page=2`],
      ['listComments', 3, 'GET', `/repositories/${id}/issues/${PR}/comments?per_page=100&page=3`],
    ]);
    expect(s.count('listComments')).toBe(3);
  });

  it('sends the Link header GitHub sends on the first, middle and last page', async () => {
    const s = await startSim({
      pullRequests: [{ owner: OWNER, repo: REPO, number: PR, comments: seeds(250) }],
    });
    const base = `${s.url}/repositories/${s.repositoryId(OWNER, REPO)}/issues/${PR}/comments`;
    const url = (page: number) => `<${base}?per_page=100&page=${page}>`;

    const page1 = await call(s, 'GET', `${commentsPath()}?per_page=100`);
    expect(page1.status).toBe(200);
    expect(page1.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(page1.headers.get('link')).toBe(`${url(2)}; rel="next", ${url(3)}; rel="last"`);
    expect(page1.json).toHaveLength(100);

    const page2 = await call(s, 'GET', `${commentsPath()}?per_page=100&page=2`);
    expect(page2.headers.get('link')).toBe(
      `${url(1)}; rel="prev", ${url(3)}; rel="next", ${url(3)}; rel="last", ${url(1)}; rel="first"`,
    );
    expect((page2.json as IssueComment[]).map((c) => c.body)).toEqual(
      Array.from({ length: 100 }, (_, i) => `comment ${i + 101}`),
    );

    const page3 = await call(s, 'GET', `${commentsPath()}?per_page=100&page=3`);
    expect(page3.headers.get('link')).toBe(`${url(2)}; rel="prev", ${url(1)}; rel="first"`);
    expect(page3.json).toHaveLength(50);

    // The links themselves answer (same query, same pages).
    const viaLink = await call(
      s,
      'GET',
      `/repositories/${s.repositoryId(OWNER, REPO)}/issues/${PR}/comments?per_page=100&page=3`,
    );
    expect(viaLink.json).toEqual(page3.json);
  });

  it('defaults to 30 a page, caps per_page at 100, keeps other query parameters, and sends no Link when one page holds everything', async () => {
    const s = await startSim({
      pullRequests: [{ owner: OWNER, repo: REPO, number: PR, comments: seeds(250) }],
    });
    const byDefault = await call(s, 'GET', commentsPath());
    expect(byDefault.json).toHaveLength(30);
    const base = `${s.url}/repositories/${s.repositoryId(OWNER, REPO)}/issues/${PR}/comments`;
    expect(byDefault.headers.get('link')).toBe(`<${base}?page=2>; rel="next", <${base}?page=9>; rel="last"`);

    const capped = await call(s, 'GET', `${commentsPath()}?page=2&per_page=500&since=x`);
    expect(capped.json).toHaveLength(100);
    expect(capped.headers.get('link')).toBe(
      `<${base}?page=1&per_page=500&since=x>; rel="prev", <${base}?page=3&per_page=500&since=x>; rel="next", ` +
        `<${base}?page=3&per_page=500&since=x>; rel="last", <${base}?page=1&per_page=500&since=x>; rel="first"`,
    );

    s.seedComments(OWNER, REPO, 8, seeds(3));
    const small = await call(s, 'GET', `${commentsPath(8)}?per_page=100`);
    expect(small.json).toHaveLength(3);
    expect(small.headers.get('link')).toBeNull();

    const exactlyFull = await call(s, 'GET', `${commentsPath(8)}?per_page=3`);
    expect(exactlyFull.headers.get('link')).toBeNull();

    const none = await call(s, 'GET', commentsPath(9));
    expect(none).toMatchObject({ status: 404 }); // strict: PR 9 was never seeded
  });
});

describe('creating and updating', () => {
  it('creates, updates and lists a comment through Octokit, shaped like GitHub', async () => {
    const s = await startSim();
    const gh = octokit(s);
    const created = await gh.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      body: 'first',
    });
    expect(created.status).toBe(201);
    const c = created.data;
    expect(Number(c.id)).toBeGreaterThan(2 ** 31);
    expect(c).toMatchObject({
      url: `${s.url}/repos/${OWNER}/${REPO}/issues/comments/${c.id}`,
      html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}#issuecomment-${c.id}`,
      issue_url: `${s.url}/repos/${OWNER}/${REPO}/issues/${PR}`,
      body: 'first',
      user: { login: 'github-actions[bot]', id: 41898282, type: 'Bot' },
      author_association: 'NONE',
      performed_via_github_app: null,
      reactions: { total_count: 0 },
    });
    expect(c.node_id).toMatch(/^IC_/);
    expect(c.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(c.updated_at).toBe(c.created_at);
    expect(created.headers.location).toBe(c.url);

    const second = await gh.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      body: 'second',
    });
    expect(Number(second.data.id)).toBeGreaterThan(Number(c.id));

    const updated = await gh.rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: Number(c.id),
      body: 'first, edited',
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: c.id, body: 'first, edited', created_at: c.created_at });
    expect(Date.parse(updated.data.updated_at)).toBeGreaterThan(Date.parse(c.updated_at));

    const listed = await gh.rest.issues.listComments({ owner: OWNER, repo: REPO, issue_number: PR });
    expect(listed.data.map((x) => [x.id, x.body])).toEqual([
      [c.id, 'first, edited'],
      [second.data.id, 'second'],
    ]);
    expect(listed.data[0]).toEqual(updated.data);
    expect(s.comments(OWNER, REPO, PR)).toEqual(listed.data);
    expect(s.comments(OWNER, REPO, 99)).toEqual([]);
  });

  it("writes as the scenario's user, treats owner/repo case-insensitively, and serves under a prefix", async () => {
    const s = await startSim({ prefix: '/api/v3', user: HUMAN_USER });
    expect(s.url).toBe(`${s.origin}/api/v3`);
    const gh = octokit(s);
    await gh.rest.issues.createComment({ owner: 'Octo-Org', repo: 'Octo-Repo', issue_number: PR, body: 'x' });
    const [comment] = s.comments(OWNER, REPO, PR);
    expect(comment).toMatchObject({ user: { login: 'octocat', type: 'User' }, author_association: 'MEMBER' });
    expect(comment?.url).toContain(`${s.origin}/api/v3/repos/Octo-Org/Octo-Repo/`);

    s.seedComments(OWNER, REPO, PR, seeds(120));
    const all = await gh.paginate(gh.rest.issues.listComments, {
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      per_page: 100,
    });
    expect(all).toHaveLength(121);
    expect(s.requests.at(-1)?.path).toBe(
      `/api/v3/repositories/${s.repositoryId(OWNER, REPO)}/issues/${PR}/comments?per_page=100&page=2`,
    );

    // Without the prefix nothing is found.
    expect((await fetch(`${s.origin}${commentsPath()}`)).status).toBe(404);
  });
});

describe('errors GitHub answers', () => {
  it('answers 401 on a wrong or missing token, accepts token and Bearer, and creates nothing', async () => {
    const s = await startSim();
    const err = await rejection(
      octokit(s, 'ghs_wrong').rest.issues.createComment({
        owner: OWNER,
        repo: REPO,
        issue_number: PR,
        body: 'x',
      }),
    );
    expect(err.status).toBe(401);
    expect(err.response?.data).toEqual({
      message: 'Bad credentials',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    });
    expect(err.message).toBe('Bad credentials - https://docs.github.com/rest');

    expect((await call(s, 'GET', commentsPath(), { auth: 'token nope' })).status).toBe(401);
    expect((await call(s, 'GET', commentsPath(), { auth: DEFAULT_TOKEN })).status).toBe(401); // no scheme
    expect(await call(s, 'GET', commentsPath(), { auth: null })).toMatchObject({
      status: 401,
      json: { message: 'Requires authentication' },
    });
    expect((await call(s, 'GET', commentsPath(), { auth: `Bearer ${DEFAULT_TOKEN}` })).status).toBe(200);
    expect((await call(s, 'GET', commentsPath(), { auth: `token ${DEFAULT_TOKEN}` })).status).toBe(200);
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
  });

  it('uses the scenario token', async () => {
    const s = await startSim({ token: 'ghp_other' });
    expect((await call(s, 'GET', commentsPath())).status).toBe(401);
    expect(
      (await octokit(s, 'ghp_other').rest.issues.listComments({ owner: OWNER, repo: REPO, issue_number: PR }))
        .status,
    ).toBe(200);
  });

  it('answers 403 to writes with a read-only token, and changes nothing', async () => {
    const s = await startSim({
      readOnly: true,
      pullRequests: [{ owner: OWNER, repo: REPO, number: PR, comments: seeds(1) }],
    });
    const [seeded] = s.comments(OWNER, REPO, PR);
    const gh = octokit(s);
    const create = await rejection(
      gh.rest.issues.createComment({ owner: OWNER, repo: REPO, issue_number: PR, body: 'x' }),
    );
    expect(create.status).toBe(403);
    expect(create.response?.data).toEqual({
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
      status: '403',
    });
    const update = await rejection(
      gh.rest.issues.updateComment({ owner: OWNER, repo: REPO, comment_id: Number(seeded?.id), body: 'x' }),
    );
    expect(update.status).toBe(403);
    expect(update.response?.data).toMatchObject({
      documentation_url: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
    });
    expect(
      (await gh.rest.issues.listComments({ owner: OWNER, repo: REPO, issue_number: PR })).data,
    ).toHaveLength(1);
    expect(s.comments(OWNER, REPO, PR)).toEqual([seeded]);
  });

  it('answers 404 to an unknown comment, a comment of another repository, an unknown pull request and an unknown path', async () => {
    const s = await startSim({
      pullRequests: [
        { owner: OWNER, repo: REPO, number: PR, comments: seeds(1) },
        { owner: OWNER, repo: 'other', number: 1, comments: seeds(1) },
      ],
    });
    const [other] = s.comments(OWNER, 'other', 1);
    const gh = octokit(s);
    const unknown = await rejection(
      gh.rest.issues.updateComment({ owner: OWNER, repo: REPO, comment_id: 1, body: 'x' }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.response?.data).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
      status: '404',
    });
    expect((await call(s, 'PATCH', commentPath(Number(other?.id)), { body: { body: 'x' } })).status).toBe(
      404,
    );
    expect(s.comments(OWNER, 'other', 1)).toEqual([other]);

    expect((await call(s, 'POST', commentsPath(8), { body: { body: 'x' } })).status).toBe(404);
    expect((await call(s, 'GET', commentsPath(PR, OWNER, 'missing'))).status).toBe(404);
    const path = await call(s, 'GET', `/repos/${OWNER}/${REPO}/pulls/${PR}`);
    expect(path).toMatchObject({ status: 404, json: { message: 'Not Found', status: '404' } });
    expect((await call(s, 'PUT', commentPath(Number(other?.id), OWNER, 'other'))).status).toBe(404);
    expect(s.requests.at(-1)?.operation).toBe('unknown');
    expect(s.count('createComment')).toBe(1);
  });

  it('answers 422 to a missing or non-string body and to one over 65536 characters, 400 to invalid JSON', async () => {
    const s = await startSim();
    const gh = octokit(s);
    const missing = await call(s, 'POST', commentsPath(), { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.json).toEqual({
      message: 'Invalid request.\n\n"body" wasn\'t supplied.',
      documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
      status: '422',
    });
    expect(await call(s, 'POST', commentsPath(), { body: { body: 5 } })).toMatchObject({
      status: 422,
      json: { message: "Invalid request.\n\nFor 'properties/body', 5 is not a string." },
    });
    expect((await call(s, 'POST', commentsPath(), { rawBody: '{"body":' })).status).toBe(400);

    const tooLong = await rejection(
      gh.rest.issues.createComment({ owner: OWNER, repo: REPO, issue_number: PR, body: 'x'.repeat(65537) }),
    );
    expect(tooLong.status).toBe(422);
    expect(tooLong.response?.data).toMatchObject({
      message: 'Validation Failed',
      errors: [
        {
          resource: 'IssueComment',
          field: 'data',
          message: 'Body is too long (maximum is 65536 characters)',
        },
      ],
    });
    expect(tooLong.message).toContain('Body is too long (maximum is 65536 characters)');
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);

    // Characters, not UTF-16 units: 65536 emoji are accepted.
    const atLimit = await gh.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      body: '😀'.repeat(65536),
    });
    const updateTooLong = await call(s, 'PATCH', commentPath(atLimit.data.id), {
      body: { body: `${'😀'.repeat(65536)}!` },
    });
    expect(updateTooLong.status).toBe(422);
    const updateMissing = await call(s, 'PATCH', commentPath(atLimit.data.id), { body: { text: 'x' } });
    expect(updateMissing).toMatchObject({
      status: 422,
      json: { message: 'Invalid request.\n\n"body" wasn\'t supplied.' },
    });
    expect(s.comments(OWNER, REPO, PR).map((c) => c.body)).toEqual(['😀'.repeat(65536)]);
  });
});

describe('GraphQL: the viewer', () => {
  it("is the user the token acts as, with its REST id, at /graphql and beside GitHub Enterprise's /api/v3", async () => {
    for (const prefix of ['', '/api/v3']) {
      const s = await startSim({ prefix, user: HUMAN_USER });
      const answer = await octokit(s).graphql<{ viewer: unknown }>('query { viewer { login databaseId } }');
      expect(answer.viewer).toEqual({ login: HUMAN_USER.login, databaseId: HUMAN_USER.id });
      expect(s.requests.at(-1)?.path).toBe(prefix === '' ? '/graphql' : '/api/graphql');
      await s.stop();
    }
  });

  it('answers GraphQL errors to any other query, and 401 to a wrong token', async () => {
    const s = await startSim();
    await expect(octokit(s).graphql('query { repository(owner: "a", name: "b") { id } }')).rejects.toThrow(
      /answers the viewer query only/,
    );
    await expect(octokit(s, 'wrong').graphql('query { viewer { login } }')).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe('faults', () => {
  const create = (s: GitHubSimulator, body = 'x', signal?: AbortSignal) =>
    octokit(s).rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      body,
      request: { signal },
    });

  it('status: answers the status with a GitHub-shaped body, changes nothing, and Octokit does not retry', async () => {
    const s = await startSim({
      faults: [{ operation: 'createComment', requests: [1], fault: { kind: 'status', status: 500 } }],
    });
    const err = await rejection(create(s));
    expect(err.status).toBe(500);
    expect(err.response?.data).toEqual({
      message: 'Internal Server Error',
      documentation_url: 'https://docs.github.com/rest',
      status: '500',
    });
    expect(s.count('createComment')).toBe(1); // no retry by Octokit
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
    expect((await create(s, 'second')).status).toBe(201);
    expect(s.comments(OWNER, REPO, PR).map((c) => c.body)).toEqual(['second']);
  });

  it('deleted: the comment is gone before the update, which answers 404 and writes nothing', async () => {
    const s = await startSim({
      faults: [{ operation: 'updateComment', requests: [1], fault: { kind: 'deleted' } }],
    });
    const [seeded] = s.seedComments(OWNER, REPO, PR, [{ body: 'before' }]);
    const err = await rejection(
      octokit(s).rest.issues.updateComment({
        owner: OWNER,
        repo: REPO,
        comment_id: Number(seeded?.id),
        body: 'after',
      }),
    );
    expect(err.status).toBe(404);
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
  });

  it('status: sends Retry-After, rate-limit headers and a given body', async () => {
    const reset = Math.floor(Date.now() / 1000) + 60;
    const s = await startSim({
      faults: [
        {
          operation: 'createComment',
          requests: [1],
          fault: { kind: 'status', status: 429, retryAfter: '7' },
        },
        {
          operation: 'createComment',
          requests: [2],
          fault: {
            kind: 'status',
            status: 403,
            rateLimitReset: reset,
            body: { message: 'API rate limit exceeded for installation.', status: '403' },
          },
        },
        { operation: 'listComments', requests: [1], fault: { kind: 'status', status: 502 } },
      ],
    });
    const limited = await rejection(create(s));
    expect(limited.status).toBe(429);
    expect(limited.response?.headers['retry-after']).toBe('7');
    expect(limited.response?.headers['x-ratelimit-remaining']).toBeUndefined();

    const rate = await rejection(create(s));
    expect(rate.status).toBe(403);
    expect(rate.response?.data).toEqual({
      message: 'API rate limit exceeded for installation.',
      status: '403',
    });
    expect(rate.response?.headers).toMatchObject({
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(reset),
    });

    const list = await call(s, 'GET', commentsPath());
    expect(list).toMatchObject({ status: 502, json: { message: 'Bad Gateway', status: '502' } });
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
  });

  it('status: a fault comes before auth, so even a bad token sees it', async () => {
    const s = await startSim({
      faults: [{ operation: 'listComments', requests: 'all', fault: { kind: 'status', status: 503 } }],
    });
    expect((await call(s, 'GET', commentsPath(), { auth: 'token wrong' })).status).toBe(503);
    expect((await call(s, 'GET', commentsPath())).status).toBe(503);
  });

  it('reset: destroys the connection after reading the request; Octokit reports status 500 without a response', async () => {
    const s = await startSim({
      faults: [{ operation: 'createComment', requests: [1], fault: { kind: 'reset' } }],
    });
    const err = await rejection(create(s, 'lost'));
    expect(err.status).toBe(500);
    expect(err.response).toBeUndefined();
    expect(err.message).toBe('other side closed');
    expect((err.cause as { cause?: { code?: string } }).cause?.code).toBe('UND_ERR_SOCKET');
    expect(s.requests[0]?.body).toEqual({ body: 'lost' });
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
  });

  it('hang: never answers until the client gives up, changes nothing, and stop() closes the connection', async () => {
    const s = await startSim({
      faults: [{ operation: 'createComment', requests: [1, 2], fault: { kind: 'hang' } }],
    });
    const started = Date.now();
    const err = await rejection(create(s, 'x', AbortSignal.timeout(300)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(err.status).toBe(500);
    expect(err.response).toBeUndefined();
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);

    const pending = call(s, 'POST', commentsPath(), { body: { body: 'y' } }).then(
      () => 'answered',
      () => 'failed',
    );
    await s.waitForRequests('createComment', 2);
    await s.stop();
    expect(await pending).toBe('failed');
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
  });

  it('delay: answers normally after the delay, and the state changes only then', async () => {
    const clock = manualClock(Date.now());
    const s = await startSim(
      { faults: [{ operation: 'createComment', requests: [1], fault: { kind: 'delay', ms: 400 } }] },
      clock,
    );
    const answer = create(s, 'late');
    await clock.asleep();
    expect(clock.slept).toEqual([400]);
    await clock.advance(399);
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
    await clock.advance(1);
    const created = await answer;
    expect(created.status).toBe(201);
    expect(s.comments(OWNER, REPO, PR)).toEqual([created.data]);
  });

  it('status-after-effect: the comment is created or updated, yet the client sees the error', async () => {
    const s = await startSim({
      faults: [
        { operation: 'createComment', requests: [1], fault: { kind: 'status-after-effect', status: 500 } },
        { operation: 'updateComment', requests: [1], fault: { kind: 'status-after-effect', status: 502 } },
      ],
    });
    const err = await rejection(create(s, 'created anyway'));
    expect(err.status).toBe(500);
    expect(err.response?.data).toMatchObject({ message: 'Internal Server Error' });
    const [comment] = s.comments(OWNER, REPO, PR);
    expect(comment?.body).toBe('created anyway');

    const update = await rejection(
      octokit(s).rest.issues.updateComment({
        owner: OWNER,
        repo: REPO,
        comment_id: Number(comment?.id),
        body: 'edited anyway',
      }),
    );
    expect(update.status).toBe(502);
    expect(s.comments(OWNER, REPO, PR).map((c) => c.body)).toEqual(['edited anyway']);
  });

  it('reset-after-effect: the comment is created, and the connection is destroyed without an answer', async () => {
    const s = await startSim({
      faults: [{ operation: 'createComment', requests: 'all', fault: { kind: 'reset-after-effect' } }],
    });
    const err = await rejection(create(s, 'created anyway'));
    expect(err.response).toBeUndefined();
    expect(s.comments(OWNER, REPO, PR).map((c) => c.body)).toEqual(['created anyway']);
  });

  it("rate-limit primary: 403 (or 429) with x-ratelimit-remaining 0 and the reset, GitHub's message naming the installation and the request id", async () => {
    const clock = manualClock(Date.UTC(2030, 0, 1, 10, 20, 30, 400));
    const s = await startSim(
      {
        faults: [
          { operation: 'createComment', requests: [1], fault: { kind: 'rate-limit', limit: 'primary' } },
          {
            operation: 'listComments',
            requests: [1],
            fault: { kind: 'rate-limit', limit: 'primary', status: 429, reset: 1_900_000_000 },
          },
        ],
      },
      clock,
    );
    const limited = await rejection(create(s));
    expect(limited.status).toBe(403);
    const id = limited.response?.headers['x-github-request-id'];
    expect(id).toMatch(/^SIM:\d+$/);
    expect(limited.response?.data).toEqual({
      message: `API rate limit exceeded for installation ID ${INSTALLATION_ID}. If you reach out to GitHub Support for help, please include the request ID ${id}.`,
      documentation_url: 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api',
      status: '403',
    });
    expect(limited.response?.headers).toMatchObject({
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': String(Date.UTC(2030, 0, 1, 11, 20, 30) / 1000), // an hour on
      'x-ratelimit-resource': 'core',
    });
    expect(limited.response?.headers['retry-after']).toBeUndefined();
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);

    const listed = await call(s, 'GET', commentsPath());
    expect(listed).toMatchObject({ status: 429, json: { status: '429' } });
    expect(listed.headers.get('x-ratelimit-reset')).toBe('1900000000');
    expect(listed.headers.get('x-ratelimit-remaining')).toBe('0');
    // Each answer has its own request id, and the message names that one.
    const other = listed.headers.get('x-github-request-id');
    expect(other).not.toBe(id);
    expect((listed.json as { message: string }).message).toContain(`request ID ${other}.`);

    expect((await create(s, 'after')).status).toBe(201);
    expect((await call(s, 'GET', commentsPath())).headers.get('x-ratelimit-remaining')).toBeNull();
  });

  it('rate-limit secondary: 403 (or 429), the secondary message, retry-after when given, else no rate-limit header at all', async () => {
    const s = await startSim({
      faults: [
        {
          operation: 'createComment',
          requests: [1],
          fault: { kind: 'rate-limit', limit: 'secondary', retryAfter: 60 },
        },
        {
          operation: 'createComment',
          requests: [2],
          fault: { kind: 'rate-limit', limit: 'secondary', status: 429 },
        },
      ],
    });
    const waited = await rejection(create(s));
    expect(waited.status).toBe(403);
    expect(waited.response?.headers['retry-after']).toBe('60');
    expect(waited.response?.data).toEqual({
      message: `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${waited.response?.headers['x-github-request-id']}.`,
      documentation_url:
        'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      status: '403',
    });
    const bare = await call(s, 'POST', commentsPath(), { body: { body: 'x' } });
    expect(bare).toMatchObject({ status: 429, json: { status: '429' } });
    expect((bare.json as { message: string }).message).toMatch(
      /^You have exceeded a secondary rate limit\. /,
    );
    const rateHeaders = [...bare.headers.keys()].filter((name) => /^(retry-after|x-ratelimit-)/.test(name));
    expect(rateHeaders).toEqual([]);
    expect(waited.response?.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
    expect(s.count('createComment')).toBe(2);
  });

  it('rate-limit with afterEffect: the comment or check run is made, yet the client sees the limit', async () => {
    const s = await startSim({
      faults: [
        {
          operation: 'createComment',
          requests: [1],
          fault: { kind: 'rate-limit', limit: 'secondary', afterEffect: true },
        },
        {
          operation: 'createCheckRun',
          requests: [1],
          fault: { kind: 'rate-limit', limit: 'primary', status: 429, afterEffect: true },
        },
        { operation: 'createCheckRun', requests: [2], fault: { kind: 'rate-limit', limit: 'primary' } },
      ],
    });
    expect((await rejection(create(s, 'made anyway'))).status).toBe(403);
    expect(s.comments(OWNER, REPO, PR).map((c) => c.body)).toEqual(['made anyway']);
    const check = () =>
      call(s, 'POST', `/repos/${OWNER}/${REPO}/check-runs`, {
        body: { name: 'e2e', head_sha: 'a'.repeat(40) },
      });
    expect(await check()).toMatchObject({
      status: 429,
      json: { message: expect.stringMatching(/^API rate limit/) },
    });
    expect(s.checkRuns(OWNER, REPO).map((r) => r.name)).toEqual(['e2e']);
    expect((await check()).status).toBe(403); // without afterEffect: nothing made
    expect(s.checkRuns(OWNER, REPO)).toHaveLength(1);
  });

  it('applies to the commit, check-run and app operations too: status-after-effect creates the check run', async () => {
    const sha = 'a'.repeat(40);
    const s = await startSim({
      faults: [
        { operation: 'createCheckRun', requests: [1], fault: { kind: 'status-after-effect', status: 502 } },
        { operation: 'updateCheckRun', requests: [1], fault: { kind: 'deleted' } },
        { operation: 'listCheckRunsForRef', requests: [1], fault: { kind: 'status', status: 500 } },
        { operation: 'getCommit', requests: [1], fault: { kind: 'status', status: 503 } },
        { operation: 'compare', requests: [1], fault: { kind: 'reset' } },
        { operation: 'getApp', requests: [1], fault: { kind: 'status', status: 429, retryAfter: '3' } },
      ],
    });
    const gh = octokit(s);
    const created = await rejection(
      gh.rest.checks.create({
        owner: OWNER,
        repo: REPO,
        name: 'tests',
        head_sha: sha,
        conclusion: 'success',
      }),
    );
    expect(created.status).toBe(502);
    const [run] = s.checkRuns(OWNER, REPO, sha);
    expect(run).toMatchObject({ name: 'tests', conclusion: 'success' });

    const list = `/repos/${OWNER}/${REPO}/commits/${sha}/check-runs`;
    expect((await call(s, 'GET', list)).status).toBe(500);
    expect(await call(s, 'GET', list)).toMatchObject({ status: 200, json: { total_count: 1 } });

    const update = await rejection(
      gh.rest.checks.update({
        owner: OWNER,
        repo: REPO,
        check_run_id: Number(run?.id),
        status: 'in_progress',
      }),
    );
    expect(update.status).toBe(404);
    expect(s.checkRuns(OWNER, REPO)).toEqual([]);

    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/${sha}`)).status).toBe(503);
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/${sha}`)).status).toBe(200);
    await expect(call(s, 'GET', `/repos/${OWNER}/${REPO}/compare/${sha}...${sha}`)).rejects.toThrow();
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/compare/${sha}...${sha}`)).status).toBe(200);
    const app = await call(s, 'GET', '/apps/github-actions', { auth: null });
    expect([app.status, app.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await call(s, 'GET', '/apps/github-actions', { auth: null })).status).toBe(200);
    const operations = [
      'createCheckRun',
      'updateCheckRun',
      'listCheckRunsForRef',
      'getCommit',
      'compare',
      'getApp',
    ];
    expect(operations.map((op) => s.count(op as Operation))).toEqual([1, 1, 2, 2, 2, 2]);
  });

  it('matches request numbers by list, range and all, per operation, counting faulted requests; the first matching rule wins', async () => {
    const s = await startSim({
      faults: [
        { operation: 'listComments', requests: [2, 4], fault: { kind: 'status', status: 500 } },
        { operation: 'listComments', requests: { from: 4, to: 5 }, fault: { kind: 'status', status: 502 } },
        { operation: 'listComments', requests: { from: 7 }, fault: { kind: 'status', status: 503 } },
        { operation: 'updateComment', requests: 'all', fault: { kind: 'status', status: 504 } },
      ],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call(s, 'GET', commentsPath())).status);
    expect(statuses).toEqual([200, 500, 200, 500, 502, 200, 503, 503]);
    expect((await call(s, 'POST', commentsPath(), { body: { body: 'x' } })).status).toBe(201);
    expect((await call(s, 'PATCH', commentPath(1), { body: { body: 'x' } })).status).toBe(504);
    expect([s.count('listComments'), s.count('createComment'), s.count('updateComment')]).toEqual([8, 1, 1]);

    s.setScenario({});
    expect((await call(s, 'GET', commentsPath())).status).toBe(200);
    expect(s.requests.at(-1)?.n).toBe(9); // counts are not reset
    expect(s.comments(OWNER, REPO, PR)).toHaveLength(1); // nor the comments
  });
});

describe('commits', () => {
  // 1 - 2 - 3            main (3)
  //      \
  //       4 - 5          feature/x (5)
  // 1 - 2 - 3 - 9        release (9): a merge of 3 and 5, first parent 3
  //               /
  //      ... 4 - 5
  // 0                    orphan: a second root
  const C0 = '0'.repeat(40);
  const C1 = '1'.repeat(40);
  const C2 = '2'.repeat(40);
  const C3 = '3'.repeat(40);
  const C4 = '4'.repeat(40);
  const C5 = '5'.repeat(40);
  const C9 = '9'.repeat(40);
  const graph: Scenario = {
    commits: [
      { owner: OWNER, repo: REPO, sha: C2, parents: [C1] },
      { owner: OWNER, repo: REPO, sha: C3, parents: [C2], message: 'Third' },
      { owner: OWNER, repo: REPO, sha: C4, parents: [C2] },
      { owner: OWNER, repo: REPO, sha: C5, parents: [C4] },
      { owner: OWNER, repo: REPO, sha: C9, parents: [C3, C5] },
    ],
    branches: [
      { owner: OWNER, repo: REPO, name: 'main', sha: C3 },
      { owner: OWNER, repo: REPO, name: 'feature/x', sha: C5 },
      { owner: OWNER, repo: REPO, name: 'release', sha: C9 },
      { owner: OWNER, repo: REPO, name: 'orphan', sha: C0 },
    ],
  };

  it('gets a commit by sha, prefix or branch, with its parents first parent first, shaped like GitHub', async () => {
    const s = await startSim(graph);
    const gh = octokit(s);
    const merge = await gh.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: 'release' });
    expect(merge.status).toBe(200);
    expect(merge.data).toMatchObject({
      sha: C9,
      url: `${s.url}/repos/${OWNER}/${REPO}/commits/${C9}`,
      html_url: `https://github.com/${OWNER}/${REPO}/commit/${C9}`,
      commit: { message: `Commit ${C9.slice(0, 7)}`, comment_count: 0 },
      files: [],
    });
    expect(merge.data.parents).toEqual([
      {
        sha: C3,
        url: `${s.url}/repos/${OWNER}/${REPO}/commits/${C3}`,
        html_url: `https://github.com/${OWNER}/${REPO}/commit/${C3}`,
      },
      expect.objectContaining({ sha: C5 }),
    ]);

    for (const ref of [C3, C3.slice(0, 7), C3.toUpperCase(), 'main', 'heads/main', 'refs/heads/main']) {
      const { data } = await gh.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref });
      expect([ref, data.sha, data.commit.message, data.parents.map((p) => p.sha)]).toEqual([
        ref,
        C3,
        'Third',
        [C2],
      ]);
    }
    // A parent that is not listed itself is a root; so is a branch head that is not listed.
    expect((await gh.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: C1 })).data.parents).toEqual([]);
    expect((await gh.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: 'orphan' })).data.sha).toBe(C0);
    expect(s.requests.at(-1)?.path).toBe(`/repos/${OWNER}/${REPO}/commits/orphan`);
    expect(s.count('getCommit')).toBe(9);
  });

  it('answers 422 No commit found for an unknown sha, an unknown branch and an ambiguous prefix', async () => {
    const s = await startSim({
      ...graph,
      commits: [
        ...(graph.commits ?? []),
        { owner: OWNER, repo: REPO, sha: `4${'0'.repeat(39)}`, parents: [] },
      ],
    });
    const unknown = await rejection(
      octokit(s).rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: 'f'.repeat(40) }),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.response?.data).toEqual({
      message: `No commit found for SHA: ${'f'.repeat(40)}`,
      documentation_url: 'https://docs.github.com/rest/commits/commits#get-a-commit',
      status: '422',
    });
    expect(await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/nope`)).toMatchObject({
      status: 422,
      json: { message: 'No commit found for SHA: nope' },
    });
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/4444`)).status).toBe(200);
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/4`)).status).toBe(422); // too short
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/400`)).status).toBe(422); // too short
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/4000`)).status).toBe(200); // 4000…0 only
    s.setScenario({
      ...graph,
      commits: [
        ...(graph.commits ?? []),
        { owner: OWNER, repo: REPO, sha: `44${'0'.repeat(38)}`, parents: [] },
      ],
    });
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/4444`)).status).toBe(200);
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/4400`)).status).toBe(200);
    s.setScenario({
      ...graph,
      commits: [
        ...(graph.commits ?? []),
        { owner: OWNER, repo: REPO, sha: `4444${'0'.repeat(36)}`, parents: [] },
      ],
    });
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/4444`)).status).toBe(422); // two match
    expect((await call(s, 'GET', `/repos/${OWNER}/other/commits/main`)).status).toBe(422);
  });

  it('reads commits and branches live, and without commits takes every 40-hex sha for a root commit', async () => {
    const s = await startSim({ branches: [{ owner: OWNER, repo: REPO, name: 'main', sha: C1 }] });
    const get = (ref: string) => call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/${ref}`);
    expect(await get(C5)).toMatchObject({ status: 200, json: { sha: C5, parents: [] } });
    expect(await get('main')).toMatchObject({ status: 200, json: { sha: C1 } });
    expect((await get(C5.slice(0, 10))).status).toBe(422); // a prefix names a known commit only
    expect((await get('develop')).status).toBe(422);

    s.setScenario(graph);
    expect(await get('main')).toMatchObject({ status: 200, json: { sha: C3 } });
    expect((await get('f'.repeat(40))).status).toBe(422); // commits given: strict

    // The commit's pulls still route as before, beside the commit.
    s.setScenario({ pulls: [{ owner: OWNER, repo: REPO, number: 3, headSha: C5, headRef: 'feature/x' }] });
    expect(await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/${C5}/pulls`)).toMatchObject({
      status: 200,
      json: [{ number: 3 }],
    });
    expect(s.requests.map((r) => r.operation).slice(-2)).toEqual(['getCommit', 'commitPulls']);
  });

  it('compares two refs as git does: ahead, behind, the merge base over all parents, the commits ahead oldest first', async () => {
    const s = await startSim(graph);
    const gh = octokit(s);
    const compare = async (base: string, head: string) =>
      (await gh.rest.repos.compareCommits({ owner: OWNER, repo: REPO, base, head })).data;
    const summary = (c: Awaited<ReturnType<typeof compare>>) => ({
      status: c.status,
      ahead_by: c.ahead_by,
      behind_by: c.behind_by,
      total_commits: c.total_commits,
      base: c.base_commit.sha,
      merge_base: c.merge_base_commit.sha,
      commits: c.commits.map((commit) => commit.sha),
    });

    // Diverged at 2: the nearest common ancestor, not the root 1.
    const diverged = await compare('main', 'feature/x');
    expect(summary(diverged)).toEqual({
      status: 'diverged',
      ahead_by: 2,
      behind_by: 1,
      total_commits: 2,
      base: C3,
      merge_base: C2,
      commits: [C4, C5],
    });
    expect(diverged).toMatchObject({
      url: `${s.url}/repos/${OWNER}/${REPO}/compare/main...feature%2Fx`,
      html_url: `https://github.com/${OWNER}/${REPO}/compare/main...feature%2Fx`,
      files: [],
    });
    expect(s.requests.at(-1)?.path).toBe(`/repos/${OWNER}/${REPO}/compare/main...feature%2Fx`);
    expect(summary(await compare('feature/x', 'main'))).toMatchObject({
      status: 'diverged',
      ahead_by: 1,
      behind_by: 2,
      merge_base: C2,
      commits: [C3],
    });

    // The merge 9 reaches 5 through its second parent: 5 is the merge base, not 2.
    expect(summary(await compare('feature/x', 'release'))).toEqual({
      status: 'ahead',
      ahead_by: 2,
      behind_by: 0,
      total_commits: 2,
      base: C5,
      merge_base: C5,
      commits: [C3, C9],
    });
    expect(summary(await compare(C1, 'release'))).toMatchObject({
      ahead_by: 5,
      merge_base: C1,
      commits: [C2, C3, C4, C5, C9],
    });
    expect(summary(await compare('release', C4.slice(0, 7)))).toMatchObject({
      status: 'behind',
      ahead_by: 0,
      behind_by: 3, // 3, 5 and the merge 9
      merge_base: C4,
      commits: [],
    });
    expect(summary(await compare('main', C3))).toMatchObject({ status: 'identical', merge_base: C3 });

    const basehead = await gh.rest.repos.compareCommitsWithBasehead({
      owner: OWNER,
      repo: REPO,
      basehead: 'main...release',
    });
    expect(summary(basehead.data)).toMatchObject({ status: 'ahead', ahead_by: 3, merge_base: C3 });
  });

  it("gets the Git database's commit object by full sha: tree, parents with git urls, no files; a look-back follows parents[0]", async () => {
    const s = await startSim(graph);
    const gh = octokit(s);
    const api = `${s.url}/repos/${OWNER}/${REPO}`;
    const { status, data } = await gh.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: C9 });
    expect(status).toBe(200);
    const full = (await gh.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: C9 })).data;
    expect(data).toEqual({
      sha: C9,
      node_id: full.node_id,
      url: `${api}/git/commits/${C9}`,
      html_url: `https://github.com/${OWNER}/${REPO}/commit/${C9}`,
      author: full.commit.author,
      committer: full.commit.committer,
      tree: full.commit.tree,
      message: `Commit ${C9.slice(0, 7)}`,
      parents: [C3, C5].map((sha) => ({
        sha,
        url: `${api}/git/commits/${sha}`,
        html_url: `https://github.com/${OWNER}/${REPO}/commit/${sha}`,
      })),
      verification: full.commit.verification,
    });
    expect(data.author).toMatchObject({ name: HUMAN_USER.login, date: '2024-05-01T12:00:00Z' });

    // From release's head along first parents: 9, 3 ('Third'), 2, then 1, a root.
    const walked: string[] = [];
    for (let sha: string | undefined = C9; sha !== undefined; ) {
      const commit: GitCommit = (await gh.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: sha }))
        .data;
      walked.push(`${commit.sha.slice(0, 1)} ${commit.message}`);
      sha = commit.parents[0]?.sha;
    }
    expect(walked).toEqual(['9 Commit 9999999', '3 Third', '2 Commit 2222222', '1 Commit 1111111']);
    expect(s.requests.at(-1)).toMatchObject({
      operation: 'getGitCommit',
      method: 'GET',
      path: `/repos/${OWNER}/${REPO}/git/commits/${C1}`,
    });
    expect(s.count('getGitCommit')).toBe(5);
    expect(s.commentCalls()).toEqual([]);
  });

  it('answers 404 Not Found on git/commits to an unknown sha, a branch, a prefix or another repository; any 40-hex sha without commits', async () => {
    const s = await startSim(graph);
    const docs = 'https://docs.github.com/rest/git/commits#get-a-commit-object';
    const unknown = await rejection(
      octokit(s).rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: 'f'.repeat(40) }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.response?.data).toEqual({ message: 'Not Found', documentation_url: docs, status: '404' });
    // Not a ref-resolving route: a branch, heads/branch or a prefix of a known sha is no object id.
    for (const ref of ['main', 'heads/main', 'refs%2Fheads%2Fmain', C3.slice(0, 7), `${C3}0`]) {
      expect([ref, (await call(s, 'GET', `/repos/${OWNER}/${REPO}/git/commits/${ref}`)).status]).toEqual([
        ref,
        404,
      ]);
    }
    expect(
      (await call(s, 'GET', `/repos/${OWNER}/${REPO}/git/commits/${C3.toUpperCase()}`)).json,
    ).toMatchObject({
      sha: C3,
    });
    expect((await call(s, 'GET', `/repos/${OWNER}/other/git/commits/${C3}`)).status).toBe(404);
    s.setScenario({});
    expect(
      (await call(s, 'GET', `/repos/${OWNER}/${REPO}/git/commits/${'f'.repeat(40)}`)).json,
    ).toMatchObject({
      sha: 'f'.repeat(40),
      parents: [],
    });
  });

  it('answers 404 to an unknown ref and to unrelated histories', async () => {
    const s = await startSim(graph);
    const unknown = await rejection(
      octokit(s).rest.repos.compareCommits({ owner: OWNER, repo: REPO, base: 'main', head: 'nope' }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.response?.data).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/commits/commits#compare-two-commits',
      status: '404',
    });
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/compare/${'f'.repeat(40)}...main`)).status).toBe(
      404,
    );
    expect(await call(s, 'GET', `/repos/${OWNER}/${REPO}/compare/main...orphan`)).toMatchObject({
      status: 404,
      json: { message: 'No common ancestor between main and orphan.' },
    });
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/compare/main..feature`)).status).toBe(404);
    expect(s.requests.at(-1)?.operation).toBe('unknown');
  });

  it("answers a pull request's base from its baseRef and the branches, or its baseSha", async () => {
    const pull = { owner: OWNER, repo: REPO, headSha: C5, headRef: 'feature/x' };
    const s = await startSim({
      ...graph,
      branches: [...(graph.branches ?? []), { owner: OWNER, repo: REPO, name: 'develop', sha: C4 }],
      pulls: [
        { ...pull, number: 1 },
        { ...pull, number: 2, baseRef: 'develop' },
        { ...pull, number: 3, baseRef: 'develop', baseSha: C2 },
        { ...pull, number: 4, baseRef: 'gone' },
      ],
    });
    const base = async (n: number) =>
      (await octokit(s).rest.pulls.get({ owner: OWNER, repo: REPO, pull_number: n })).data.base;
    expect(await base(1)).toMatchObject({
      label: `${OWNER}:main`,
      ref: 'main',
      sha: C3,
      repo: { full_name: `${OWNER}/${REPO}` },
    });
    expect(await base(2)).toMatchObject({ label: `${OWNER}:develop`, ref: 'develop', sha: C4 });
    expect(await base(3)).toMatchObject({ ref: 'develop', sha: C2 });
    expect(await base(4)).toMatchObject({ ref: 'gone', sha: DEFAULT_BASE_SHA });
    s.setScenario({ pulls: [{ ...pull, number: 1 }] });
    expect(await base(1)).toMatchObject({ ref: 'main', sha: DEFAULT_BASE_SHA });
  });

  it('lists pull requests by state, head (owner:branch) and base branch, newest first', async () => {
    const pull = { owner: OWNER, repo: REPO, headSha: C5 };
    const s = await startSim({
      ...graph,
      pulls: [
        { ...pull, number: 1, headRef: 'feature/x' },
        { ...pull, number: 2, headRef: 'feature/y', baseRef: 'feature/x' },
        { ...pull, number: 3, headRef: 'feature/x', baseRef: 'develop', state: 'closed' },
        { ...pull, number: 4, headRef: 'feature/x', head: 'someone/fork' },
      ],
    });
    const numbers = async (query: { state?: 'open' | 'closed' | 'all'; head?: string; base?: string }) =>
      (await octokit(s).rest.pulls.list({ owner: OWNER, repo: REPO, ...query })).data.map((p) => p.number);
    expect(await numbers({})).toEqual([4, 2, 1]);
    expect(await numbers({ head: `${OWNER}:feature/x` })).toEqual([1]);
    expect(await numbers({ head: 'someone:feature/x' })).toEqual([4]);
    expect(await numbers({ base: 'feature/x' })).toEqual([2]);
    expect(await numbers({ base: 'main' })).toEqual([4, 1]);
    expect(await numbers({ base: 'develop' })).toEqual([]);
    expect(await numbers({ base: 'develop', state: 'all' })).toEqual([3]);
    expect(await numbers({ head: `${OWNER}:feature/x`, base: 'main', state: 'all' })).toEqual([1]);
  });
});

describe('check runs', () => {
  const HEAD = 'a'.repeat(40);
  const BASE = 'c'.repeat(40);
  const ELSEWHERE = 'e'.repeat(40);
  const history: Scenario = {
    commits: [
      { owner: OWNER, repo: REPO, sha: HEAD, parents: [BASE] },
      { owner: OWNER, repo: REPO, sha: ELSEWHERE, parents: [BASE] },
    ],
    branches: [{ owner: OWNER, repo: REPO, name: 'feature', sha: HEAD }],
  };
  const runsPath = `/repos/${OWNER}/${REPO}/check-runs`;
  const listPath = (ref: string, query = '') => `/repos/${OWNER}/${REPO}/commits/${ref}/check-runs${query}`;
  const create = (s: GitHubSimulator, body: Record<string, unknown>) =>
    call(s, 'POST', runsPath, { body: { name: 'tests', head_sha: HEAD, ...body } });

  it('creates check runs through Octokit, shaped like GitHub: queued, in progress, or completed by a conclusion', async () => {
    const s = await startSim(history);
    const gh = octokit(s);
    const created = await gh.rest.checks.create({
      owner: OWNER,
      repo: REPO,
      name: 'tests',
      head_sha: HEAD,
      status: 'in_progress',
      details_url: 'https://tests.example.com/run/1',
      external_id: 'run-1',
      output: { title: 'Running', summary: '3 of 10', text: 'details' },
    });
    expect(created.status).toBe(201);
    const run = created.data;
    expect(Number(run.id)).toBeGreaterThan(2 ** 32);
    expect(run).toMatchObject({
      head_sha: HEAD,
      name: 'tests',
      status: 'in_progress',
      conclusion: null,
      completed_at: null,
      url: `${s.url}/repos/${OWNER}/${REPO}/check-runs/${run.id}`,
      html_url: `https://github.com/${OWNER}/${REPO}/runs/${run.id}`,
      details_url: 'https://tests.example.com/run/1',
      external_id: 'run-1',
      output: {
        title: 'Running',
        summary: '3 of 10',
        text: 'details',
        annotations_count: 0,
        annotations_url: `${s.url}/repos/${OWNER}/${REPO}/check-runs/${run.id}/annotations`,
      },
      app: {
        id: 15368,
        slug: 'github-actions',
        name: 'GitHub Actions',
        owner: { login: 'github', type: 'Organization' },
        html_url: 'https://github.com/apps/github-actions',
      },
      pull_requests: [],
    });
    expect(run.node_id).toMatch(/^CR_/);
    expect(run.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Number(run.check_suite?.id)).toBeGreaterThan(2 ** 32);

    // A conclusion completes the run, whatever the status says; without either it is queued.
    const done = await gh.rest.checks.create({
      owner: OWNER,
      repo: REPO,
      name: 'lint',
      head_sha: HEAD,
      status: 'queued',
      conclusion: 'failure',
      started_at: '2024-06-01T10:00:00.250Z',
      completed_at: '2024-06-01T10:05:00+02:00',
    });
    expect(done.data).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
      started_at: '2024-06-01T10:00:00Z',
      completed_at: '2024-06-01T08:05:00Z',
      check_suite: run.check_suite, // one suite per app and commit
      // None given: GitHub shows the app's homepage and an empty external id.
      details_url: 'https://help.github.com/en/actions',
      external_id: '',
      output: { title: null, summary: null, text: null },
    });
    const concluded = await create(s, { conclusion: 'success' });
    expect(concluded).toMatchObject({ status: 201, json: { status: 'completed', conclusion: 'success' } });
    expect((concluded.json as { completed_at: string }).completed_at).toMatch(/Z$/);
    expect(await create(s, {})).toMatchObject({ status: 201, json: { status: 'queued', conclusion: null } });
    // By branch? No: head_sha is a sha (upper case is one).
    expect(await create(s, { head_sha: HEAD.toUpperCase() })).toMatchObject({ json: { head_sha: HEAD } });

    expect(s.checkRuns(OWNER, REPO, HEAD).map((r) => [r.name, r.status])).toEqual([
      ['tests', 'queued'],
      ['tests', 'queued'],
      ['tests', 'completed'],
      ['lint', 'completed'],
      ['tests', 'in_progress'],
    ]);
    expect(s.checkRuns(OWNER, REPO, HEAD).at(-1)).toEqual(run);
    expect(s.checkRuns(OWNER, REPO, ELSEWHERE)).toEqual([]);
    expect(s.checkRuns(OWNER, 'other')).toEqual([]);
    expect(s.count('createCheckRun')).toBe(5);
  });

  it('updates a check run: completes it, takes it back to in_progress (conclusion cleared), keeps what is not named', async () => {
    const s = await startSim(history);
    const gh = octokit(s);
    const { data: run } = await gh.rest.checks.create({
      owner: OWNER,
      repo: REPO,
      name: 'tests',
      head_sha: HEAD,
      status: 'in_progress',
      output: { title: 'Running', summary: 'started', text: 'log' },
    });
    const update = (
      fields: Omit<Parameters<typeof gh.rest.checks.update>[0], 'owner' | 'repo' | 'check_run_id'>,
    ) => gh.rest.checks.update({ owner: OWNER, repo: REPO, check_run_id: Number(run.id), ...fields });

    const completed = await update({ conclusion: 'failure', output: { summary: '2 failed' } });
    expect(completed.status).toBe(200);
    expect(completed.data).toMatchObject({
      id: run.id,
      status: 'completed',
      conclusion: 'failure',
      started_at: run.started_at,
      output: { title: 'Running', summary: '2 failed', text: 'log' },
    });
    expect(completed.data.completed_at).toMatch(/Z$/);

    const again = await update({
      status: 'in_progress',
      name: 'tests (retry)',
      details_url: 'https://x.test/2',
    });
    expect(again.data).toMatchObject({
      status: 'in_progress',
      conclusion: null,
      completed_at: null,
      name: 'tests (retry)',
      details_url: 'https://x.test/2',
      output: { summary: '2 failed' },
    });
    const last = await update({
      status: 'completed',
      conclusion: 'success',
      completed_at: '2030-01-01T00:00:00Z',
    });
    expect(last.data).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      completed_at: '2030-01-01T00:00:00Z',
    });
    expect(s.checkRuns(OWNER, REPO)).toEqual([last.data]);
    expect(s.requests.at(-1)).toMatchObject({
      operation: 'updateCheckRun',
      method: 'PATCH',
      path: `/repos/${OWNER}/${REPO}/check-runs/${run.id}`,
    });
  });

  it('answers 422 to a missing field, an unknown commit, a bad value and an output over 65535 characters or bytes, 400 to invalid JSON, and creates nothing', async () => {
    const s = await startSim(history);
    const docs = 'https://docs.github.com/rest/checks/runs#create-a-check-run';
    expect(await call(s, 'POST', runsPath, { body: { head_sha: HEAD } })).toEqual(
      expect.objectContaining({
        status: 422,
        json: {
          message: 'Invalid request.\n\n"name" wasn\'t supplied.',
          documentation_url: docs,
          status: '422',
        },
      }),
    );
    expect((await call(s, 'POST', runsPath, { body: {} })).json).toMatchObject({
      message: 'Invalid request.\n\n"name", "head_sha" weren\'t supplied.',
    });
    expect((await create(s, { name: 5 })).json).toMatchObject({
      message: "Invalid request.\n\nFor 'properties/name', 5 is not a string.",
    });
    expect((await create(s, { status: 'done' })).json).toMatchObject({
      message: `Invalid request.\n\nFor 'properties/status', "done" is not a member of ["queued", "in_progress", "completed"].`,
    });
    expect((await create(s, { conclusion: 'stale' })).status).toBe(422); // GitHub's to set only
    expect((await create(s, { started_at: 'yesterday' })).status).toBe(422);
    expect((await create(s, { status: 'completed' })).json).toMatchObject({
      message: expect.stringContaining('"conclusion" wasn\'t supplied.'),
    });
    expect((await create(s, { output: { summary: 'x' } })).json).toMatchObject({
      message: 'Invalid request.\n\n"title" wasn\'t supplied.',
    });
    expect((await call(s, 'POST', runsPath, { rawBody: '{"name":' })).status).toBe(400);

    // The commit must exist: by sha, not by branch.
    const unknown = await rejection(
      octokit(s).rest.checks.create({ owner: OWNER, repo: REPO, name: 'tests', head_sha: 'f'.repeat(40) }),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.response?.data).toEqual({
      message: `No commit found for SHA: ${'f'.repeat(40)}`,
      documentation_url: docs,
      status: '422',
    });
    expect(await create(s, { head_sha: 'feature' })).toMatchObject({
      status: 422,
      json: { message: 'No commit found for SHA: feature' },
    });

    // Characters first (code points, not UTF-16 units), then UTF-8 bytes.
    const title = 'Results';
    expect((await create(s, { output: { title, summary: 'x'.repeat(65536) } })).json).toMatchObject({
      message: 'Invalid request.\n\nOnly 65535 characters are allowed; 65536 were supplied.',
    });
    expect(
      (await create(s, { output: { title, summary: 'x', text: 'y'.repeat(70000) } })).json,
    ).toMatchObject({
      message: 'Invalid request.\n\nOnly 65535 characters are allowed; 70000 were supplied.',
    });
    const bytes = await create(s, { output: { title, summary: '😀'.repeat(65535) } });
    expect(bytes).toMatchObject({
      status: 422,
      json: {
        message: 'Validation Failed',
        errors: [
          {
            resource: 'CheckRun',
            code: 'custom',
            field: 'summary',
            message: 'summary exceeds a maximum bytesize of 65535',
          },
        ],
        documentation_url: docs,
        status: '422',
      },
    });
    const textBytes = await create(s, {
      output: { title, summary: 'x'.repeat(65535), text: 'é'.repeat(32768) },
    });
    expect((textBytes.json as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(['text']);
    expect(s.checkRuns(OWNER, REPO)).toEqual([]);

    // At the limit: 65535 characters of one byte each; 32767 two-byte characters.
    expect(
      (await create(s, { output: { title, summary: 'x'.repeat(65535), text: 'é'.repeat(32767) } })).status,
    ).toBe(201);
    const [run] = s.checkRuns(OWNER, REPO);
    const patch = (body: unknown) => call(s, 'PATCH', `${runsPath}/${run?.id}`, { body });
    expect((await patch({ output: { title: 'no summary' } })).json).toMatchObject({
      message: 'Invalid request.\n\n"summary" wasn\'t supplied.',
    });
    expect((await patch({ output: { summary: 'é'.repeat(40000) } })).json).toMatchObject({
      errors: [{ field: 'summary' }],
    });
    expect((await patch({ status: 'completed' })).status).toBe(422);
    expect(s.checkRuns(OWNER, REPO)).toEqual([run]);
  });

  it("answers 403 without the checks permission, 403 to an update of another app's run, 404 to an unknown run", async () => {
    const s = await startSim({ ...history, checks: 'read' });
    const theirs = s.seedCheckRun({ owner: OWNER, repo: REPO, headSha: HEAD, name: 'ci', app: OTHER_APP });
    const gh = octokit(s);
    const denied = await rejection(
      gh.rest.checks.create({ owner: OWNER, repo: REPO, name: 'x', head_sha: HEAD }),
    );
    expect(denied.status).toBe(403);
    expect(denied.response?.data).toEqual({
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
      status: '403',
    });
    expect(
      (await call(s, 'PATCH', `${runsPath}/${theirs.id}`, { body: { conclusion: 'success' } })).status,
    ).toBe(403);
    expect((await call(s, 'GET', listPath(HEAD))).status).toBe(200); // read may read

    s.setScenario({ ...history, checks: 'none' });
    expect(await call(s, 'GET', listPath(HEAD))).toMatchObject({
      status: 403,
      json: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference',
      },
    });

    // The comments' readOnly does not touch checks; another app's run is not this token's to update.
    s.setScenario({ ...history, readOnly: true });
    expect((await create(s, {})).status).toBe(201);
    const other = await rejection(
      gh.rest.checks.update({
        owner: OWNER,
        repo: REPO,
        check_run_id: Number(theirs.id),
        conclusion: 'success',
      }),
    );
    expect(other.status).toBe(403);
    expect(other.response?.data).toMatchObject({
      message: 'Invalid app_id `9426` - check run can only be modified by the GitHub App that created it.',
    });
    expect(s.checkRuns(OWNER, REPO, HEAD).find((r) => r.id === theirs.id)).toEqual(theirs);

    const missing = await rejection(
      gh.rest.checks.update({ owner: OWNER, repo: REPO, check_run_id: 12345, conclusion: 'success' }),
    );
    expect(missing.status).toBe(404);
    expect(missing.response?.data).toEqual({
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/checks/runs#update-a-check-run',
      status: '404',
    });
    // The run exists, in another repository.
    expect(
      (
        await call(s, 'PATCH', `/repos/${OWNER}/other/check-runs/${theirs.id}`, {
          body: { conclusion: 'success' },
        })
      ).status,
    ).toBe(404);
  });

  it('lists the latest run per name and app by default, every run with filter=all, newest first, by check_name, app_id and status', async () => {
    const s = await startSim({
      ...history,
      checkRuns: [
        { owner: OWNER, repo: REPO, headSha: HEAD, name: 'build', conclusion: 'failure' },
        { owner: OWNER, repo: REPO, headSha: HEAD, name: 'test', status: 'in_progress' },
        { owner: OWNER, repo: REPO, headSha: HEAD, name: 'build', app: OTHER_APP },
        { owner: OWNER, repo: REPO, headSha: HEAD, name: 'build' }, // a re-run: success
        { owner: OWNER, repo: REPO, headSha: ELSEWHERE, name: 'build' },
      ],
    });
    const ids = s.checkRuns(OWNER, REPO, HEAD).map((r) => Number(r.id)); // newest first
    const [rerun, other, test, first] = ids;
    const deployed = Number(s.seedCheckRun({ owner: OWNER, repo: REPO, headSha: BASE, name: 'deploy' }).id);
    const redeploying = Number(
      s.seedCheckRun({ owner: OWNER, repo: REPO, headSha: BASE, name: 'deploy', status: 'queued' }).id,
    );
    const list = async (ref: string, query = '') => {
      const answer = await call(s, 'GET', listPath(ref, query));
      const body = answer.json as { total_count: number; check_runs: { id: number }[] };
      return [body.total_count, body.check_runs.map((r) => r.id)];
    };
    expect(await list(HEAD)).toEqual([3, [rerun, other, test]]);
    expect(await list('feature')).toEqual([3, [rerun, other, test]]);
    expect(await list(HEAD, '?filter=latest')).toEqual([3, [rerun, other, test]]);
    expect(await list(HEAD, '?filter=all')).toEqual([4, [rerun, other, test, first]]);
    expect(await list(HEAD, '?check_name=build')).toEqual([2, [rerun, other]]);
    expect(await list(HEAD, '?check_name=build&filter=all&app_id=15368')).toEqual([2, [rerun, first]]);
    expect(await list(HEAD, '?app_id=9426')).toEqual([1, [other]]);
    expect(await list(HEAD, '?status=in_progress')).toEqual([1, [test]]);
    expect(await list(ELSEWHERE.slice(0, 7), '?check_name=test')).toEqual([0, []]);
    // status filters what filter=latest kept: the queued re-run hides the completed deploy.
    expect(await list(BASE, '?status=completed')).toEqual([0, []]);
    expect(await list(BASE, '?status=completed&filter=all')).toEqual([1, [deployed]]);
    expect(await list(BASE)).toEqual([1, [redeploying]]);

    const { data } = await octokit(s).rest.checks.listForRef({ owner: OWNER, repo: REPO, ref: 'feature' });
    expect(data.check_runs).toEqual(s.checkRuns(OWNER, REPO, HEAD).filter((r) => r.id !== first));
    expect(data.check_runs[0]).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      app: { id: 15368 },
    });
    expect(data.check_runs[2]).toMatchObject({ status: 'in_progress', conclusion: null, completed_at: null });

    expect(await call(s, 'GET', listPath('nope'))).toMatchObject({
      status: 422,
      json: { message: 'No commit found for SHA: nope' },
    });
  });

  it("pages check runs with GitHub's Link header; Octokit's paginate gathers them", async () => {
    const s = await startSim(history);
    for (let i = 1; i <= 250; i++)
      s.seedCheckRun({ owner: OWNER, repo: REPO, headSha: HEAD, name: `check ${i}` });
    const first = await call(s, 'GET', listPath('feature', '?per_page=100'));
    const base = `${s.url}/repositories/${s.repositoryId(OWNER, REPO)}/commits/feature/check-runs`;
    expect(first.headers.get('link')).toBe(
      `<${base}?per_page=100&page=2>; rel="next", <${base}?per_page=100&page=3>; rel="last"`,
    );
    expect(first.json).toMatchObject({ total_count: 250 });
    expect((first.json as { check_runs: unknown[] }).check_runs).toHaveLength(100);
    const third = await call(s, 'GET', listPath('feature', '?per_page=100&page=3'));
    expect(third.json).toMatchObject({ total_count: 250 });
    expect((third.json as { check_runs: { name: string }[] }).check_runs.map((r) => r.name)).toEqual(
      Array.from({ length: 50 }, (_, i) => `check ${50 - i}`),
    );
    expect(third.headers.get('link')).toBe(
      `<${base}?per_page=100&page=2>; rel="prev", <${base}?per_page=100&page=1>; rel="first"`,
    );

    const gh = octokit(s);
    const all = await gh.paginate(gh.rest.checks.listForRef, {
      owner: OWNER,
      repo: REPO,
      ref: HEAD,
      per_page: 100,
    });
    expect(all).toHaveLength(250);
    expect(all).toEqual(s.checkRuns(OWNER, REPO, HEAD));
    expect(s.requests.slice(-3).map((r) => r.path)).toEqual([
      `/repos/${OWNER}/${REPO}/commits/${HEAD}/check-runs?per_page=100`,
      `/repositories/${s.repositoryId(OWNER, REPO)}/commits/${HEAD}/check-runs?per_page=100&page=2`,
      `/repositories/${s.repositoryId(OWNER, REPO)}/commits/${HEAD}/check-runs?per_page=100&page=3`,
    ]);
  });

  it('stores and lists output.text (limited like summary, in characters and UTF-8 bytes, on update too), in pages as small as asked, at most 100', async () => {
    const s = await startSim(history);
    const gh = octokit(s);
    const text = `${'é'.repeat(30000)}\n<!-- history -->`;
    const { data: ours } = await gh.rest.checks.create({
      owner: OWNER,
      repo: REPO,
      name: 'e2e',
      head_sha: HEAD,
      status: 'in_progress',
      output: { title: 'Running', summary: 'started', text },
    });
    s.seedCheckRun({
      owner: OWNER,
      repo: REPO,
      headSha: HEAD,
      name: 'theirs',
      app: OTHER_APP,
      output: { title: 'Theirs', summary: 'big', text: 'x'.repeat(65535) },
    });
    for (let i = 1; i <= 3; i++)
      s.seedCheckRun({ owner: OWNER, repo: REPO, headSha: HEAD, name: `other ${i}` });

    const page = async (query: string) => {
      const answer = await call(s, 'GET', listPath(HEAD, query));
      const body = answer.json as { total_count: number; check_runs: CheckRun[] };
      return { link: answer.headers.get('link'), total: body.total_count, runs: body.check_runs };
    };
    const first = await page('?per_page=2');
    expect([first.total, first.runs.map((r) => r.name)]).toEqual([5, ['other 3', 'other 2']]);
    expect(first.link).toContain('per_page=2&page=3>; rel="last"');
    const third = await page('?per_page=2&page=3');
    expect(third.runs.map((r) => [r.name, r.output.text?.length])).toEqual([['e2e', text.length]]);
    expect(third.runs[0]?.output).toEqual({ ...ours.output, text });
    const single = await page(`?per_page=1&page=2&app_id=${OTHER_APP.id}`);
    expect([single.total, single.runs]).toEqual([1, []]);
    expect((await page(`?per_page=1&app_id=${OTHER_APP.id}`)).runs[0]?.output.text).toBe('x'.repeat(65535));

    // An update replaces the text, within the same limits as the summary.
    const patch = (output: Record<string, string>) =>
      call(s, 'PATCH', `/repos/${OWNER}/${REPO}/check-runs/${ours.id}`, { body: { output } });
    expect((await patch({ summary: 'done', text: 'y'.repeat(65536) })).json).toMatchObject({
      message: 'Invalid request.\n\nOnly 65535 characters are allowed; 65536 were supplied.',
    });
    expect((await patch({ summary: 'done', text: 'é'.repeat(32768) })).json).toMatchObject({
      message: 'Validation Failed',
      errors: [
        {
          resource: 'CheckRun',
          code: 'custom',
          field: 'text',
          message: 'text exceeds a maximum bytesize of 65535',
        },
      ],
    });
    expect((await patch({ summary: 'done', text: 'new text' })).status).toBe(200);
    expect((await page('?check_name=e2e')).runs[0]?.output).toMatchObject({
      summary: 'done',
      text: 'new text',
    });

    // per_page at most 100.
    for (let i = 4; i <= 110; i++)
      s.seedCheckRun({ owner: OWNER, repo: REPO, headSha: HEAD, name: `other ${i}` });
    const capped = await page('?per_page=500');
    expect([capped.total, capped.runs.length]).toEqual([112, 100]);
  });

  it('with pullRequests set, knows the repositories its commits, branches or check runs name, and no other', async () => {
    const s = await startSim({
      ...history,
      pullRequests: [{ owner: OWNER, repo: 'comments', number: 1 }],
      checkRuns: [{ owner: OWNER, repo: 'seeded', headSha: HEAD, name: 'x' }],
    });
    expect((await create(s, {})).status).toBe(201); // REPO: in the commits
    expect((await call(s, 'GET', `/repos/${OWNER}/${REPO}/commits/feature`)).status).toBe(200);
    // 'seeded' exists, but the scenario's commits are strict and none is its.
    expect((await call(s, 'GET', `/repos/${OWNER}/seeded/commits/${HEAD}/check-runs`)).status).toBe(422);
    expect(s.checkRuns(OWNER, 'seeded', HEAD)).toHaveLength(1);
    expect((await call(s, 'GET', `/repos/${OWNER}/nowhere/commits/${HEAD}`)).status).toBe(404);
    expect((await call(s, 'POST', `/repos/${OWNER}/nowhere/check-runs`, { body: {} })).status).toBe(404);
  });

  it('writes as the scenario app, and without commits in the scenario takes any 40-hex sha', async () => {
    const s = await startSim({ app: OTHER_APP });
    const created = await create(s, { head_sha: ELSEWHERE, conclusion: 'neutral' });
    expect(created).toMatchObject({
      status: 201,
      json: { app: { id: 9426, slug: 'some-ci', name: 'Some CI' }, details_url: 'https://ci.example.com' },
    });
    const seeded = s.seedCheckRun({ owner: OWNER, repo: REPO, headSha: ELSEWHERE, name: 'actions' });
    expect(seeded).toMatchObject({ status: 'completed', conclusion: 'success', app: { id: 15368 } });
    const update = (id: unknown) =>
      call(s, 'PATCH', `${runsPath}/${id}`, { body: { status: 'in_progress' } });
    expect((await update(seeded.id)).status).toBe(403);
    expect((await update((created.json as { id: number }).id)).status).toBe(200);
    expect((await create(s, { head_sha: 'abc' })).status).toBe(422); // not a sha
  });
});

describe('workflow runs', () => {
  const MAIN = 'c'.repeat(40);
  const OLD = 'd'.repeat(40);
  const FEATURE = 'f'.repeat(40);
  const runsPath = (workflow: string | number, query = '') =>
    `/repos/${OWNER}/${REPO}/actions/workflows/${workflow}/runs${query}`;
  const run = (fields: Partial<SimWorkflowRun>): SimWorkflowRun => ({
    owner: OWNER,
    repo: REPO,
    workflow: 'e2e.yml',
    headSha: MAIN,
    headBranch: 'main',
    event: 'push',
    ...fields,
  });
  const scenario: Scenario = {
    commits: [{ owner: OWNER, repo: REPO, sha: MAIN, parents: [OLD], message: 'Fix the cart\n\nDetails.' }],
    workflowRuns: [
      run({ headSha: OLD, event: 'schedule', conclusion: 'failure' }), // 12:00
      run({ event: 'pull_request', headBranch: 'main' }), // 12:01: a pull request's branch named main
      run({ workflow: 'lint.yml' }), // 12:02
      run({ headSha: FEATURE, headBranch: 'feature', event: 'pull_request' }), // 12:03
      run({ headSha: OLD, event: 'workflow_dispatch', createdAt: '2024-05-01T12:30:00Z', runAttempt: 2 }),
      run({ event: 'push', status: 'in_progress' }), // 12:05
      run({ owner: 'someone', repo: 'else' }), // another repository
      run({ id: 42, event: 'schedule', conclusion: 'cancelled', createdAt: '2024-05-01T12:05:00Z' }),
    ],
  };
  const ids = (answer: Answer) =>
    (answer.json as { workflow_runs: { id: number }[] }).workflow_runs.map(
      (r) => r.id - FIRST_WORKFLOW_RUN_ID,
    );

  it("lists a workflow's runs newest first, shaped by the workflow-run schema, through Octokit", async () => {
    const s = await startSim(scenario);
    const { status, data } = await octokit(s).rest.actions.listWorkflowRuns({
      owner: OWNER,
      repo: REPO,
      workflow_id: 'e2e.yml',
    });
    expect(status).toBe(200);
    expect(data.total_count).toBe(6);
    // 12:30 (4), 12:05 (5, then 42: same time, higher id first), 12:03 (3), 12:01 (1), 12:00 (0).
    expect(data.workflow_runs.map((r) => Number(r.id) - FIRST_WORKFLOW_RUN_ID)).toEqual([
      4,
      5,
      42 - FIRST_WORKFLOW_RUN_ID,
      3,
      1,
      0,
    ]);
    expect(data.workflow_runs.map((r) => r.run_number)).toEqual([6, 5, 4, 3, 2, 1]);
    const [dispatched, running] = data.workflow_runs;
    const api = `${s.url}/repos/${OWNER}/${REPO}`;
    const id = FIRST_WORKFLOW_RUN_ID + 4;
    expect(dispatched).toMatchObject({
      id,
      name: '.github/workflows/e2e.yml',
      head_branch: 'main',
      head_sha: OLD,
      path: '.github/workflows/e2e.yml',
      event: 'workflow_dispatch',
      status: 'completed',
      conclusion: 'success',
      run_attempt: 2,
      url: `${api}/actions/runs/${id}`,
      html_url: `https://github.com/${OWNER}/${REPO}/actions/runs/${id}`,
      previous_attempt_url: `${api}/actions/runs/${id}/attempts/1`,
      created_at: '2024-05-01T12:30:00Z',
      updated_at: '2024-05-01T12:35:00Z',
      run_started_at: '2024-05-01T12:30:00Z',
      pull_requests: [],
      head_commit: { id: OLD, message: `Commit ${OLD.slice(0, 7)}` },
      repository: { id: s.repositoryId(OWNER, REPO), full_name: `${OWNER}/${REPO}`, name: REPO },
      head_repository: { full_name: `${OWNER}/${REPO}` },
    });
    expect(dispatched?.workflow_id).toBeGreaterThan(0);
    expect(dispatched?.workflow_url).toBe(`${api}/actions/workflows/${dispatched?.workflow_id}`);
    expect(running).toMatchObject({
      head_sha: MAIN,
      status: 'in_progress',
      conclusion: null,
      run_attempt: 1,
      previous_attempt_url: null,
      display_title: 'Fix the cart',
      created_at: '2024-05-01T12:05:00Z',
      updated_at: '2024-05-01T12:05:00Z',
      head_commit: { id: MAIN, message: 'Fix the cart\n\nDetails.' },
    });
    expect(new Set(data.workflow_runs.map((r) => r.workflow_id)).size).toBe(1);

    // The same workflow by its id; another workflow by its file has another id.
    const byId = await call(s, 'GET', runsPath(Number(dispatched?.workflow_id)));
    expect(byId.json).toEqual(data);
    const lint = await call(s, 'GET', runsPath('lint.yml'));
    expect(ids(lint)).toEqual([2]);
    expect(
      (lint.json as { workflow_runs: { workflow_id: number }[] }).workflow_runs[0]?.workflow_id,
    ).not.toBe(dispatched?.workflow_id);
    expect(s.requests.at(0)).toMatchObject({ operation: 'listWorkflowRuns', path: runsPath('e2e.yml') });
    expect(s.commentCalls()).toEqual([]);
  });

  it('filters by branch, event, head_sha and status (a status or a conclusion), as the look-back asks', async () => {
    const s = await startSim(scenario);
    const list = async (query: string) => {
      const answer = await call(s, 'GET', runsPath('e2e.yml', query));
      return [(answer.json as { total_count: number }).total_count, ids(answer)];
    };
    const cancelled = 42 - FIRST_WORKFLOW_RUN_ID;
    expect(await list('?branch=main&status=completed')).toEqual([4, [4, cancelled, 1, 0]]);
    expect(await list('?branch=main&status=completed&per_page=100')).toEqual([4, [4, cancelled, 1, 0]]);
    expect(await list('?branch=feature')).toEqual([1, [3]]);
    expect(await list('?branch=nope')).toEqual([0, []]);
    expect(await list('?event=schedule')).toEqual([2, [cancelled, 0]]);
    expect(await list('?status=in_progress')).toEqual([1, [5]]);
    expect(await list('?status=success')).toEqual([3, [4, 3, 1]]);
    expect(await list('?status=failure&branch=main')).toEqual([1, [0]]);
    expect(await list(`?head_sha=${OLD}`)).toEqual([2, [4, 0]]);
    expect(await list('?branch=main&event=push')).toEqual([1, [5]]);
  });

  it("pages with GitHub's Link header: 30 a page by default, per_page at most 100; Octokit's paginate gathers them", async () => {
    const many: SimWorkflowRun[] = Array.from({ length: 130 }, (_, i) =>
      run({ headSha: (i % 16).toString(16).repeat(40) }),
    );
    const s = await startSim({ workflowRuns: many });
    const first = await call(s, 'GET', runsPath('e2e.yml', '?branch=main&per_page=2'));
    expect(first.json).toMatchObject({ total_count: 130 });
    expect(ids(first)).toEqual([129, 128]);
    const workflowId = (first.json as { workflow_runs: { workflow_id: number }[] }).workflow_runs[0]
      ?.workflow_id;
    const base = `${s.url}/repositories/${s.repositoryId(OWNER, REPO)}/actions/workflows/${workflowId}/runs`;
    expect(first.headers.get('link')).toBe(
      `<${base}?branch=main&per_page=2&page=2>; rel="next", <${base}?branch=main&per_page=2&page=65>; rel="last"`,
    );
    const capped = await call(s, 'GET', runsPath('e2e.yml', '?per_page=500&page=2'));
    expect(ids(capped)).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
    expect(ids(await call(s, 'GET', runsPath('e2e.yml')))).toHaveLength(30);

    const gh = octokit(s);
    const all = await gh.paginate(gh.rest.actions.listWorkflowRuns, {
      owner: OWNER,
      repo: REPO,
      workflow_id: 'e2e.yml',
      per_page: 100,
    });
    expect(all.map((r) => Number(r.id) - FIRST_WORKFLOW_RUN_ID)).toEqual(
      Array.from({ length: 130 }, (_, i) => 129 - i),
    );
    expect(s.requests.at(-1)?.path).toBe(
      `/repositories/${s.repositoryId(OWNER, REPO)}/actions/workflows/${workflowId}/runs?per_page=100&page=2`,
    );
  });

  it('answers 403 without the actions permission, 404 to an unknown workflow or repository, 401 without the token', async () => {
    const s = await startSim({ ...scenario, actions: 'none' });
    const docs = 'https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow';
    const denied = await rejection(
      octokit(s).rest.actions.listWorkflowRuns({ owner: OWNER, repo: REPO, workflow_id: 'e2e.yml' }),
    );
    expect(denied.status).toBe(403);
    expect(denied.response?.data).toEqual({
      message: 'Resource not accessible by integration',
      documentation_url: docs,
      status: '403',
    });
    s.setScenario({ ...scenario, actions: 'read' });
    expect((await call(s, 'GET', runsPath('e2e.yml'))).status).toBe(200);
    expect(await call(s, 'GET', runsPath('nightly.yml'))).toMatchObject({
      status: 404,
      json: { message: 'Not Found', documentation_url: docs, status: '404' },
    });
    expect(await call(s, 'GET', runsPath(123))).toMatchObject({ status: 404 });
    // A workflow of another repository is not this one's.
    expect((await call(s, 'GET', `/repos/someone/else/actions/workflows/e2e.yml/runs`)).json).toMatchObject({
      total_count: 1,
    });
    s.setScenario({ ...scenario, workflowRuns: scenario.workflowRuns?.slice(6, 7) });
    expect((await call(s, 'GET', runsPath('e2e.yml'))).status).toBe(404);
    // With pullRequests set, a repository the workflow runs name exists; another does not.
    const third = run({ owner: 'third', repo: 'party' });
    s.setScenario({ ...scenario, pullRequests: [], workflowRuns: [...(scenario.workflowRuns ?? []), third] });
    expect((await call(s, 'GET', '/repos/third/party/actions/workflows/e2e.yml/runs')).status).toBe(200);
    expect((await call(s, 'GET', `/repos/${OWNER}/nowhere/actions/workflows/e2e.yml/runs`)).status).toBe(404);
    expect((await call(s, 'GET', runsPath('e2e.yml'), { auth: null })).status).toBe(401);
  });
});

describe('apps', () => {
  it('gets GitHub Actions, OTHER_APP and the scenario app by slug, without a token too; 404 otherwise', async () => {
    const mine = { id: 777, slug: 'my-app', name: 'My App', owner: HUMAN_USER };
    const s = await startSim({ app: mine });
    const gh = octokit(s);
    const actions = await gh.rest.apps.getBySlug({ app_slug: 'github-actions' });
    expect(actions.data).toEqual(
      expect.objectContaining({
        id: GITHUB_ACTIONS_APP.id,
        slug: 'github-actions',
        node_id: 'MDM6QXBwMTUzNjg=',
        name: 'GitHub Actions',
        owner: expect.objectContaining({ login: 'github', id: 9919, type: 'Organization' }),
        description: 'Automate your workflow from idea to production',
        external_url: 'https://help.github.com/en/actions',
        html_url: 'https://github.com/apps/github-actions',
        created_at: '2018-07-30T09:30:17Z',
      }),
    );
    expect(actions.data?.permissions).toMatchObject({ checks: 'write', pull_requests: 'write' });
    expect(await call(s, 'GET', '/apps/some-ci', { auth: null })).toMatchObject({
      status: 200,
      json: { id: OTHER_APP.id, name: 'Some CI' },
    });
    expect(await call(s, 'GET', '/apps/my-app')).toMatchObject({
      status: 200,
      json: {
        id: 777,
        owner: { login: 'octocat' },
        external_url: 'https://github.com/apps/my-app',
        events: [],
      },
    });
    expect(await call(s, 'GET', '/apps/nope')).toMatchObject({
      status: 404,
      json: {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest/apps/apps#get-an-app',
        status: '404',
      },
    });
    expect((await call(s, 'GET', '/apps/github-actions', { auth: 'token wrong' })).status).toBe(401);
    expect(s.count('getApp')).toBe(5);
  });
});

describe('request log', () => {
  it('logs operation, per-operation number, method, path with query, headers, parsed body and time', async () => {
    const s = await startSim();
    const before = Date.now();
    const gh = octokit(s);
    const { data } = await gh.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      body: 'hello',
    });
    await gh.rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: Number(data.id),
      body: 'bye',
    });
    await gh.rest.issues.listComments({ owner: OWNER, repo: REPO, issue_number: PR, per_page: 50, page: 1 });
    await gh.rest.issues.createComment({ owner: OWNER, repo: REPO, issue_number: PR, body: 'again' });
    await call(s, 'POST', commentsPath(), { rawBody: 'not json' });
    await call(s, 'GET', '/rate_limit');

    expect(
      s.requests.map(({ operation, n, method, path, body }) => ({ operation, n, method, path, body })),
    ).toEqual([
      { operation: 'createComment', n: 1, method: 'POST', path: commentsPath(), body: { body: 'hello' } },
      {
        operation: 'updateComment',
        n: 1,
        method: 'PATCH',
        path: commentPath(data.id),
        body: { body: 'bye' },
      },
      {
        operation: 'listComments',
        n: 1,
        method: 'GET',
        path: `${commentsPath()}?per_page=50&page=1`,
        body: undefined,
      },
      { operation: 'createComment', n: 2, method: 'POST', path: commentsPath(), body: { body: 'again' } },
      { operation: 'createComment', n: 3, method: 'POST', path: commentsPath(), body: 'not json' },
      { operation: 'unknown', n: 1, method: 'GET', path: '/rate_limit', body: undefined },
    ]);
    const first = s.requests[0];
    expect(first?.headers).toMatchObject({
      authorization: `token ${DEFAULT_TOKEN}`,
      accept: 'application/vnd.github.v3+json',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(first?.headers['user-agent']).toMatch(/octokit/);
    for (const r of s.requests) {
      expect(r.at).toBeGreaterThanOrEqual(before);
      expect(r.at).toBeLessThanOrEqual(Date.now());
    }
  });
});

describe('requests in flight and counted', () => {
  const create = (s: GitHubSimulator, name: string) =>
    octokit(s).rest.checks.create({ owner: OWNER, repo: REPO, name, head_sha: 'a'.repeat(40) });
  const comment = (s: GitHubSimulator, body: string, signal?: AbortSignal) =>
    octokit(s).rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: PR,
      body,
      request: { signal },
    });

  it('stamps when each request was received and answered; two creates sent at once count 2 in flight, one after the other 1', async () => {
    const clock = manualClock(Date.now());
    const start = clock.now();
    const s = await startSim(
      {
        faults: [
          { operation: 'createCheckRun', requests: 'all', fault: { kind: 'delay', ms: 100 } },
          { operation: 'createComment', requests: 'all', fault: { kind: 'delay', ms: 100 } },
        ],
      },
      clock,
    );
    const both = Promise.all([create(s, 'one'), create(s, 'two')]);
    await clock.asleep(2);
    expect(s.requests.map((r) => [r.at, r.answeredAt])).toEqual([
      [start, undefined],
      [start, undefined],
    ]);
    expect(s.maxInFlight(['createCheckRun'])).toBe(2); // still in flight: counted until now
    await clock.advance(100);
    await both;
    expect(s.requests.map((r) => [r.at, r.answeredAt])).toEqual([
      [start, start + 100],
      [start, start + 100],
    ]);
    expect(s.maxInFlight(['createCheckRun'])).toBe(2);

    // One after the other: the second is received the instant the first is answered.
    for (const [i, body] of ['first', 'second'].entries()) {
      const answer = comment(s, body);
      await clock.asleep(3 + i);
      await clock.advance(100);
      expect((await answer).status).toBe(201);
    }
    const comments = s.requests.filter((r) => r.operation === 'createComment');
    expect(comments.map((r) => [r.at - start, (r.answeredAt ?? 0) - start])).toEqual([
      [100, 200],
      [200, 300],
    ]);
    expect(s.maxInFlight(['createComment'])).toBe(1);
    expect(s.maxInFlight(['createComment', 'updateComment'])).toBe(1);
    expect(s.maxInFlight()).toBe(2);
    expect(s.maxInFlight(['listComments'])).toBe(0);

    // In turn within the same instant: by the order of events, not the clock, they never overlap.
    for (const _ of [1, 2]) await call(s, 'GET', commentsPath());
    const listed = s.requests.filter((r) => r.operation === 'listComments');
    expect(listed.map((r) => [r.at, r.answeredAt])).toEqual([
      [start + 300, start + 300],
      [start + 300, start + 300],
    ]);
    expect(s.maxInFlight(['listComments'])).toBe(1);
  });

  it('counts without a test clock too: Octokit calls awaited in turn never overlap, sent together they do', async () => {
    const s = await startSim({
      faults: [{ operation: 'createCheckRun', requests: 'all', fault: { kind: 'delay', ms: 50 } }],
    });
    for (const name of ['a', 'b', 'c']) await comment(s, name);
    expect(s.maxInFlight(['createComment'])).toBe(1);
    await Promise.all([create(s, 'x'), create(s, 'y'), create(s, 'z')]);
    expect(s.maxInFlight(['createCheckRun'])).toBe(3);
    for (const r of s.requests) expect(r.answeredAt).toBeGreaterThanOrEqual(r.at);
  });

  it('a request the client gives up on is answered (closed) then; a hung one stays in flight until stop()', async () => {
    const s = await startSim({
      faults: [
        { operation: 'createComment', requests: [1], fault: { kind: 'hang' } },
        { operation: 'listComments', requests: [1], fault: { kind: 'hang' } },
        { operation: 'updateComment', requests: [1], fault: { kind: 'reset' } },
      ],
    });
    const gaveUp = new AbortController();
    const hung = comment(s, 'never answered', gaveUp.signal);
    const listed = call(s, 'GET', commentsPath()).catch(() => 'closed');
    await s.waitForRequests('createComment');
    await s.waitForRequests('listComments');
    // Which arrives first is the network's choice.
    const logged = (operation: Operation) => s.requests.find((r) => r.operation === operation);
    expect(s.requests.map((r) => r.answeredAt)).toEqual([undefined, undefined]);
    expect(s.maxInFlight()).toBe(2);
    gaveUp.abort();
    await expect(hung).rejects.toThrow();
    await eventually(() => expect(logged('createComment')?.answeredAt).toBeDefined());
    expect(logged('listComments')?.answeredAt).toBeUndefined();

    await expect(call(s, 'PATCH', commentPath(1), { body: { body: 'x' } })).rejects.toThrow(); // reset
    await eventually(() => expect(logged('updateComment')?.answeredAt).toBeDefined());
    await s.stop();
    expect(await listed).toBe('closed');
    await eventually(() => expect(logged('listComments')?.answeredAt).toBeDefined());
  });

  it('requestCounts: requests by operation since resetCounts(), faulted and unknown ones too; request numbers go on', async () => {
    const s = await startSim({
      faults: [{ operation: 'listComments', requests: [2], fault: { kind: 'status', status: 502 } }],
    });
    expect(s.requestCounts()).toEqual({});
    await comment(s, 'one');
    await call(s, 'GET', commentsPath());
    await call(s, 'GET', commentsPath()); // 502
    await create(s, 'tests');
    await call(s, 'GET', '/rate_limit');
    expect(s.requestCounts()).toEqual({
      createComment: 1,
      listComments: 2,
      createCheckRun: 1,
      unknown: 1,
    });
    s.resetCounts();
    expect(s.requestCounts()).toEqual({});
    await call(s, 'GET', commentsPath());
    await comment(s, 'two');
    await comment(s, 'three');
    expect(s.requestCounts()).toEqual({ listComments: 1, createComment: 2 });
    expect(s.count('listComments')).toBe(3); // since the start
    expect(s.requests.at(-1)).toMatchObject({ operation: 'createComment', n: 3 });
    expect(s.requests).toHaveLength(8); // the log is kept
  });
});

describe('pullRequestEvent', () => {
  it('builds a pull_request payload with the fields the action reads', () => {
    const event = pullRequestEvent({
      owner: OWNER,
      repo: REPO,
      number: PR,
      headSha: 'f'.repeat(40),
      headRef: 'feat',
    });
    expect(event).toMatchObject({
      action: 'opened',
      number: PR,
      pull_request: {
        number: PR,
        html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR}`,
        head: { sha: 'f'.repeat(40), ref: 'feat', repo: { full_name: `${OWNER}/${REPO}` } },
        base: { ref: 'main', repo: { full_name: `${OWNER}/${REPO}` } },
      },
      repository: { full_name: `${OWNER}/${REPO}`, name: REPO, owner: { login: OWNER } },
    });
    expect(event.pull_request.base.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(
      pullRequestEvent({ owner: OWNER, repo: REPO, number: 3, baseRef: 'develop' }).pull_request,
    ).toMatchObject({
      head: { ref: 'feature-3' },
      base: { ref: 'develop' },
    });
  });

  it("is read by @actions/github's context, and getOctokit follows GITHUB_API_URL when it is set before the import", async () => {
    const s = await startSim();
    const eventPath = pullRequestEventFile({ owner: OWNER, repo: REPO, number: PR });
    const script = `
      import { context, getOctokit } from '@actions/github';
      const { data } = await getOctokit(process.env.TOKEN).rest.issues.createComment({
        owner: context.repo.owner, repo: context.repo.repo, issue_number: context.issue.number, body: 'from the event',
      });
      console.log(JSON.stringify({ issue: context.issue, sha: context.payload.pull_request.head.sha, id: data.id }));
    `;
    const run = await runProcess(process.execPath, ['--input-type=module', '-e', script], {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH ?? '',
        TOKEN: DEFAULT_TOKEN,
        GITHUB_API_URL: s.url,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_EVENT_NAME: 'pull_request',
      },
    });
    if (run.code !== 0) throw new Error(`the script failed: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as { issue: unknown; sha: string; id: number };
    expect(result.issue).toEqual({ owner: OWNER, repo: REPO, number: PR });
    expect(result.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(s.comments(OWNER, REPO, PR)).toEqual([
      expect.objectContaining({ id: result.id, body: 'from the event' }),
    ]);
  });
});

describe('deleting', () => {
  const remove = (s: GitHubSimulator, id: number, owner = OWNER, repo = REPO) =>
    octokit(s).rest.issues.deleteComment({ owner, repo, comment_id: id });

  it('deletes a comment: 204 with no body, and the comment is gone; logged', async () => {
    const s = await startSim();
    const [first, second] = s.seedComments(OWNER, REPO, PR, [{ body: 'first' }, { body: 'second' }]);
    expect((await remove(s, Number(first?.id))).status).toBe(204);
    expect(s.comments(OWNER, REPO, PR)).toEqual([second]);
    expect(s.requests.at(-1)).toMatchObject({
      operation: 'deleteComment',
      n: 1,
      method: 'DELETE',
      path: commentPath(Number(first?.id)),
    });
    expect(await call(s, 'DELETE', commentPath(Number(second?.id)))).toMatchObject({
      status: 204,
      json: undefined,
    });
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
  });

  it('answers 404 to an unknown id, a comment already deleted and one of another repository', async () => {
    const s = await startSim();
    const [ours] = s.seedComments(OWNER, REPO, PR, [{ body: 'ours' }]);
    const [theirs] = s.seedComments(OWNER, 'other', 1, [{ body: 'theirs' }]);
    expect((await rejection(remove(s, 1))).status).toBe(404);
    expect((await rejection(remove(s, Number(theirs?.id)))).status).toBe(404);
    await remove(s, Number(ours?.id));
    const again = await rejection(remove(s, Number(ours?.id)));
    expect([again.status, again.response?.data]).toEqual([
      404,
      {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest/issues/comments#delete-an-issue-comment',
        status: '404',
      },
    ]);
    expect(s.comments(OWNER, 'other', 1)).toEqual([theirs]);
  });

  it('answers 403 with a read-only token, and faults as the other operations; neither deletes', async () => {
    const s = await startSim({
      readOnly: true,
      faults: [{ operation: 'deleteComment', requests: [2], fault: { kind: 'status', status: 500 } }],
    });
    const [seeded] = s.seedComments(OWNER, REPO, PR, [{ body: 'kept' }]);
    expect((await rejection(remove(s, Number(seeded?.id)))).status).toBe(403);
    s.setScenario({
      faults: [{ operation: 'deleteComment', requests: [2], fault: { kind: 'status', status: 500 } }],
    });
    expect((await rejection(remove(s, Number(seeded?.id)))).status).toBe(500);
    expect(s.comments(OWNER, REPO, PR)).toEqual([seeded]);
    expect((await remove(s, Number(seeded?.id))).status).toBe(204);
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
  });
});
