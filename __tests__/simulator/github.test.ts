import { getOctokit } from '@actions/github';
import { afterEach, describe, expect, it } from '@jest/globals';
import { runProcess } from '../helpers/process.js';
import {
  DEFAULT_TOKEN,
  GITHUB_ACTIONS_BOT,
  GitHubSimulator,
  HUMAN_USER,
  type IssueComment,
  pullRequestEvent,
  pullRequestEventFile,
  type Scenario,
  type SeedComment,
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

async function startSim(scenario?: Scenario): Promise<GitHubSimulator> {
  sim = await GitHubSimulator.start(scenario);
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    const s = await startSim({
      faults: [{ operation: 'createComment', requests: [1], fault: { kind: 'delay', ms: 400 } }],
    });
    const started = Date.now();
    const answer = create(s, 'late');
    await s.waitForRequests('createComment');
    await sleep(100);
    expect(s.comments(OWNER, REPO, PR)).toEqual([]);
    const created = await answer;
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
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
