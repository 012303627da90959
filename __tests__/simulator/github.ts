/**
 * A simulator of the GitHub REST API's issue-comment endpoints, for end-to-end tests of the sticky
 * pull-request comment.
 *
 * It serves like https://api.github.com (or a GitHub Enterprise `/api/v3` with `prefix`) over real
 * HTTP on 127.0.0.1, with repositories whose pull requests hold comments, scripted by a `Scenario`:
 * which token is valid, whether it may write, which pull requests exist with which comments, and
 * which requests fail and how. Every request is logged, so a test can check what the client sent.
 *
 * Choices where GitHub's behaviour is not copied exactly (see also the comments below):
 * - Order of checks for a request: route (unknown -> 404, no auth needed), faults, auth (401),
 *   repository / issue / comment lookup (404), read-only token (403), body (400 / 422), operation.
 * - A faulted request changes no state, except 'delay' (answers normally, state changes when it
 *   answers) and the '-after-effect' kinds (the operation is performed, then the answer is replaced).
 * - Request numbers (`LoggedRequest.n`, `FaultRule.requests`) count every request of an operation
 *   since the simulator started; `setScenario` does not reset them, nor the comments.
 * - Link headers point at `/repositories/{id}/issues/{n}/comments` as GitHub's do, so pages after
 *   the first are logged with that path; the simulator serves both forms for every comment operation.
 * - Timestamps have GitHub's one-second resolution, and each create / update gets a stamp at least
 *   one second after the previous one, so `updated_at` always changes (it may run slightly ahead of
 *   the clock when a test writes many comments within a second).
 * - Owner and repository names are case-insensitive, as on GitHub.
 * - GraphQL answers one query, the token's `viewer { login databaseId }` (the scenario's `user`,
 *   as GitHub answers for an installation token: the bot's login with `[bot]`, its user id);
 *   any other query gets GraphQL's `errors`.
 */

import * as fs from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { components } from '@octokit/openapi-types';
import {
  faultFor,
  isObject,
  JsonServer,
  type FaultRule as JsonServerFaultRule,
  type LoggedRequest as JsonServerRequest,
  listeningServer,
  normalisePrefix,
  type ParsedBody,
  type Reply,
  type StartOptions,
  send,
  streamForever,
} from './json-server.js';

export type IssueComment = components['schemas']['issue-comment'];
export type AuthorAssociation = components['schemas']['author-association'];

export type Operation =
  | 'listComments' // GET   {prefix}/repos/{owner}/{repo}/issues/{issue_number}/comments?per_page&page
  | 'createComment' // POST  {prefix}/repos/{owner}/{repo}/issues/{issue_number}/comments  body {body}
  | 'updateComment' // PATCH {prefix}/repos/{owner}/{repo}/issues/comments/{comment_id}    body {body}
  | 'graphql' // POST  /graphql (GitHub Enterprise: /api/graphql beside /api/v3)  body {query}: viewer only
  | 'getPull' // GET   {prefix}/repos/{owner}/{repo}/pulls/{pull_number}
  | 'listPulls' // GET   {prefix}/repos/{owner}/{repo}/pulls?state&head&per_page&page
  | 'commitPulls' // GET   {prefix}/repos/{owner}/{repo}/commits/{sha}/pulls
  | 'deleteComment'; // DELETE {prefix}/repos/{owner}/{repo}/issues/comments/{comment_id} -> 204

export interface SimUser {
  login: string;
  id: number;
  type: 'Bot' | 'User';
}

export interface SeedComment {
  body: string;
  /** Default GITHUB_ACTIONS_BOT. */
  user?: SimUser;
  /** Default 'NONE' for a bot, 'MEMBER' for a user. */
  authorAssociation?: AuthorAssociation;
  /** ISO time; default the time of seeding. `updatedAt` defaults to `createdAt`. */
  createdAt?: string;
  updatedAt?: string;
}

export interface PullRequestSeed {
  owner: string;
  repo: string;
  number: number;
  comments?: SeedComment[];
}

export type Fault =
  /** Answer this status; body default {message: '<reason phrase>', documentation_url, status}. */
  | {
      kind: 'status';
      status: number;
      retryAfter?: string;
      /** Epoch seconds: also send x-ratelimit-remaining: 0 and this x-ratelimit-reset (a rate-limit 403 / 429). */
      rateLimitReset?: number;
      body?: unknown;
    }
  | { kind: 'reset' } // destroy the socket without any answer (after reading the request)
  | { kind: 'hang' } // read the request, never answer (socket stays open until stop())
  | { kind: 'delay'; ms: number } // answer normally, after ms
  | { kind: 'status-after-effect'; status: number; body?: unknown } // perform the operation, then answer status
  | { kind: 'reset-after-effect' } // perform the operation, then destroy the socket without an answer
  | { kind: 'deleted' } // updateComment: someone deleted the comment just before; it is gone, and this answers 404
  | { kind: 'endless' } // 200, a JSON list whose first comment's body never ends
  | { kind: 'text'; text: string } // 200 with this body as text/html (a captive portal's page, say)
  | { kind: 'link'; next: string } // answer normally, with a Link header naming `next` as the next page
  | { kind: 'redirect'; status: 301 | 302 | 307 | 308; location: string };

export type FaultRule = JsonServerFaultRule<Operation, Fault>;
export type LoggedRequest = JsonServerRequest<Operation>;

export interface Scenario {
  /** The valid token (default DEFAULT_TOKEN), sent as `Authorization: token X` or `Bearer X`. */
  token?: string;
  /** The token may read but not write: creates, updates and deletes -> 403 'Resource not accessible by integration'. */
  readOnly?: boolean;
  /** Who the token acts as: the author of the comments created through the API, and GraphQL's viewer; default GITHUB_ACTIONS_BOT. */
  user?: SimUser;
  /** Path prefix the API is mounted under, e.g. '/api/v3' as on GitHub Enterprise (default ''). */
  prefix?: string;
  /**
   * Pull requests that exist, with their comments (seeded when the simulator starts). When set, other
   * repositories and issue numbers -> 404; when absent, every owner/repo#number exists, empty at first.
   */
  pullRequests?: PullRequestSeed[];
  faults?: FaultRule[];
  /**
   * Pull requests as the pulls endpoints show them (read live: `setScenario` may change them). The
   * commit's pulls list only those whose head is in the base repository, as GitHub answers [] for
   * a commit that exists only in a fork. Default: SAMPLE_PULL_REQUEST, open at its head, the pull
   * request of `pullRequestEnv`.
   */
  pulls?: SimPull[];
}

/** A pull request of the pulls endpoints: octo/shop#7 from `head` (`owner/repo`, default the base). */
export interface SimPull {
  owner: string;
  repo: string;
  number: number;
  headSha: string;
  headRef: string;
  /** `owner/repo` of the head; default the base repository (not a fork). */
  head?: string;
  /** Default 'open'. */
  state?: 'open' | 'closed';
}

export const DEFAULT_TOKEN = 'ghs_test-token';

/** The user GITHUB_TOKEN acts as (its real id). */
export const GITHUB_ACTIONS_BOT: SimUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

export const HUMAN_USER: SimUser = { login: 'octocat', id: 583231, type: 'User' };

export const MAX_BODY_LENGTH = 65536;

const DOCS = {
  rest: 'https://docs.github.com/rest',
  listComments: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  createComment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  updateComment: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
  getPull: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
  listPulls: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  commitPulls: 'https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit',
  deleteComment: 'https://docs.github.com/rest/issues/comments#delete-an-issue-comment',
} as const;

/** GitHub's error body: {message, documentation_url, status} (status as a string, as GitHub sends it). */
function githubError(status: number, message: string, documentationUrl: string = DOCS.rest) {
  return { message, documentation_url: documentationUrl, status: String(status) };
}

// Above 2^31, as GitHub's comment ids are now: a client that stores them in an int32 breaks here too.
const FIRST_COMMENT_ID = 2_400_000_001;
const FIRST_REPOSITORY_ID = 700_000_001;

interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: SimUser;
  authorAssociation: AuthorAssociation;
  createdAt: string;
  updatedAt: string;
}

interface Repository {
  id: number;
  owner: string;
  repo: string;
  /** Issue number -> comments in ascending id order. */
  issues: Map<number, StoredComment[]>;
}

type RepoRef = { owner: string; repo: string } | { id: number };

interface Route {
  operation: Operation;
  repo: RepoRef;
  /** Issue number (list, create), comment id (update, delete) or pull request number (getPull). */
  number: number;
  /** commitPulls: the commit. */
  sha?: string;
}

export class GitHubSimulator extends JsonServer<Operation> {
  /** Base URL to give Octokit (`baseUrl`) or the action (`GITHUB_API_URL`): origin + prefix. */
  readonly url: string;

  private scenario: Scenario;
  /** Keyed by lower-case 'owner/repo'. */
  private readonly repositories = new Map<string, Repository>();
  private nextCommentId = FIRST_COMMENT_ID;
  private nextRepositoryId = FIRST_REPOSITORY_ID;
  private nextRequestId = 1;
  private lastStamp = 0;

  private constructor(server: Server, scenario: Scenario) {
    super(server);
    this.scenario = scenario;
    this.url = this.origin + normalisePrefix(scenario.prefix);
    for (const pr of scenario.pullRequests ?? []) {
      this.seedComments(pr.owner, pr.repo, pr.number, pr.comments ?? []);
    }
  }

  static async start(scenario: Scenario = {}, options: StartOptions = {}): Promise<GitHubSimulator> {
    return new GitHubSimulator(await listeningServer(options), scenario);
  }

  /** Replaces the scenario. Comments and request counts stay; `pullRequests` is not seeded again. */
  setScenario(scenario: Scenario): void {
    this.scenario = scenario;
  }

  /** Adds comments to a pull request (creating it if needed) and returns them as the API shows them. */
  seedComments(owner: string, repo: string, issue: number, seeds: SeedComment[]): IssueComment[] {
    const repository = this.repository(owner, repo, true);
    const list = issueComments(repository, issue, true);
    const now = githubTime(Date.now());
    const added = seeds.map((seed) => {
      const user = seed.user ?? GITHUB_ACTIONS_BOT;
      const createdAt = seed.createdAt ?? now;
      const comment: StoredComment = {
        id: this.nextCommentId++,
        issue,
        body: seed.body,
        user,
        authorAssociation: seed.authorAssociation ?? defaultAssociation(user),
        createdAt,
        updatedAt: seed.updatedAt ?? createdAt,
      };
      list.push(comment);
      return comment;
    });
    this.lastStamp = Math.max(this.lastStamp, Date.parse(now));
    return added.map((c) => this.render(repository, c));
  }

  /** The current comments of a pull request in ascending id order, as the API shows them ([] when none). */
  comments(owner: string, repo: string, issue: number): IssueComment[] {
    const repository = this.repository(owner, repo, false);
    if (!repository) return [];
    return (repository.issues.get(issue) ?? []).map((c) => this.render(repository, c));
  }

  /** The repository's numeric id, used in Link headers (`/repositories/{id}/...`); creates the repository. */
  repositoryId(owner: string, repo: string): number {
    return this.repository(owner, repo, true).id;
  }

  // ---- request handling ----

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const route = this.route(req.method ?? 'GET', path);
    const { n, body } = await this.receive(req, route?.operation ?? 'unknown');
    if (this.stopped) return;

    if (!route) {
      this.send(res, { status: 404, body: githubError(404, 'Not Found') });
      return;
    }

    const fault = faultFor(this.scenario.faults, route.operation, n);
    switch (fault?.kind) {
      case undefined:
        this.send(res, this.answer(route, req, path, body));
        return;
      case 'status':
        this.send(res, faultReply(fault.status, fault.body, fault.retryAfter, fault.rateLimitReset));
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        return; // the socket stays open until the client gives up or stop() destroys it
      case 'delay':
        this.later(fault.ms, () => this.send(res, this.answer(route, req, path, body)));
        return;
      case 'status-after-effect':
        this.answer(route, req, path, body);
        this.send(res, faultReply(fault.status, fault.body));
        return;
      case 'reset-after-effect':
        this.answer(route, req, path, body);
        req.socket.destroy();
        return;
      case 'deleted':
        this.remove(route);
        this.send(res, this.answer(route, req, path, body));
        return;
      case 'endless':
        streamForever(res, '[{"id": 1, "html_url": "https://github.com/", "body": "');
        return;
      case 'text':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fault.text);
        return;
      case 'link': {
        const reply = this.answer(route, req, path, body);
        this.send(res, { ...reply, headers: { ...reply.headers, link: `<${fault.next}>; rel="next"` } });
        return;
      }
      case 'redirect':
        this.send(res, { status: fault.status, body: {}, headers: { location: fault.location } });
        return;
    }
  }

  private send(res: ServerResponse, reply: Reply): void {
    send(res, {
      ...reply,
      headers: { 'x-github-request-id': `SIM:${this.nextRequestId++}`, ...reply.headers },
    });
  }

  /** Deletes the comment an update route names, as someone on the web page would. */
  private remove(route: Route): void {
    for (const repository of this.repositories.values()) {
      for (const list of repository.issues.values()) {
        const index = list.findIndex((comment) => comment.id === route.number);
        if (index >= 0) list.splice(index, 1);
      }
    }
  }

  /** GraphQL's path: /graphql, or /api/graphql beside GitHub Enterprise's /api/v3. */
  private graphqlPath(): string {
    const prefix = normalisePrefix(this.scenario.prefix);
    return prefix.endsWith('/v3') ? `${prefix.slice(0, -'/v3'.length)}/graphql` : `${prefix}/graphql`;
  }

  private route(method: string, rawPath: string): Route | undefined {
    const pathOnly = rawPath.split('?')[0] ?? '';
    if (method === 'POST' && pathOnly === this.graphqlPath()) {
      return { operation: 'graphql', repo: { id: 0 }, number: 0 };
    }
    const prefix = normalisePrefix(this.scenario.prefix);
    if (!pathOnly.startsWith(`${prefix}/`)) return undefined;
    const segments = pathOnly.slice(prefix.length + 1).split('/');
    if (segments.some((s) => s === '')) return undefined;
    let params: string[];
    try {
      params = segments.map((s) => decodeURIComponent(s));
    } catch {
      return undefined;
    }
    // /repos/{owner}/{repo}/rest... or /repositories/{id}/rest...
    let repo: RepoRef;
    let rest: string[];
    if (params[0] === 'repos' && params.length >= 3) {
      repo = { owner: params[1] as string, repo: params[2] as string };
      rest = params.slice(3);
    } else if (params[0] === 'repositories' && params.length >= 2 && isId(params[1])) {
      repo = { id: Number(params[1]) };
      rest = params.slice(2);
    } else {
      return undefined;
    }
    const pulls = method === 'GET' ? pullsRoute(rest) : undefined;
    if (pulls) return { ...pulls, repo };
    const [issues, a, b, ...more] = rest;
    if (issues !== 'issues' || more.length > 0) return undefined;
    if (isId(a) && b === 'comments') {
      if (method === 'GET') return { operation: 'listComments', repo, number: Number(a) };
      if (method === 'POST') return { operation: 'createComment', repo, number: Number(a) };
    }
    if (a === 'comments' && isId(b) && method === 'PATCH') {
      return { operation: 'updateComment', repo, number: Number(b) };
    }
    if (a === 'comments' && isId(b) && method === 'DELETE') {
      return { operation: 'deleteComment', repo, number: Number(b) };
    }
    return undefined;
  }

  /** undefined when the request carries the scenario's token, else the 401 to answer. */
  private unauthorised(req: IncomingMessage): Reply | undefined {
    const header = req.headers.authorization;
    if (header === undefined) return { status: 401, body: githubError(401, 'Requires authentication') };
    const match = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(header);
    if (match?.[1] === (this.scenario.token ?? DEFAULT_TOKEN)) return undefined;
    return { status: 401, body: githubError(401, 'Bad credentials') };
  }

  private answer(route: Route, req: IncomingMessage, path: string, body: ParsedBody): Reply {
    const denied = this.unauthorised(req);
    if (denied) return denied;
    if (route.operation === 'graphql') return this.graphql(body);
    const docs = DOCS[route.operation];
    const notFound: Reply = { status: 404, body: githubError(404, 'Not Found', docs) };
    const strict = this.scenario.pullRequests !== undefined;
    const ref = route.repo;
    const repository =
      'id' in ref
        ? [...this.repositories.values()].find((r) => r.id === ref.id)
        : this.repository(ref.owner, ref.repo, !strict);
    if (!repository) return notFound;
    if (
      route.operation === 'getPull' ||
      route.operation === 'listPulls' ||
      route.operation === 'commitPulls'
    ) {
      return this.pullsAnswer(route, repository, path) ?? notFound;
    }

    if (route.operation === 'updateComment') {
      const comment = findComment(repository, route.number);
      if (!comment) return notFound;
      const text = this.validBody(body, docs);
      if (typeof text !== 'string') return text;
      comment.body = text;
      comment.updatedAt = this.stamp();
      return { status: 200, body: this.render(repository, comment) };
    }

    if (route.operation === 'deleteComment') return this.deleteAnswer(repository, route.number, docs);

    const list = issueComments(repository, route.number, !strict);
    if (!list) return notFound;

    if (route.operation === 'listComments') return this.listPage(repository, route.number, list, path);

    const text = this.validBody(body, docs);
    if (typeof text !== 'string') return text;
    const user = this.scenario.user ?? GITHUB_ACTIONS_BOT;
    const createdAt = this.stamp();
    const comment: StoredComment = {
      id: this.nextCommentId++,
      issue: route.number,
      body: text,
      user,
      authorAssociation: defaultAssociation(user),
      createdAt,
      updatedAt: createdAt,
    };
    list.push(comment);
    return {
      status: 201,
      body: this.render(repository, comment),
      headers: { location: commentUrl(this.url, repository, comment.id) },
    };
  }

  /** 204 with no body; 404 for a comment that is not there (deleted already), 403 for a read-only token. */
  private deleteAnswer(repository: Repository, id: number, docs: string): Reply {
    const comment = findComment(repository, id);
    if (!comment) return { status: 404, body: githubError(404, 'Not Found', docs) };
    if (this.scenario.readOnly) {
      return { status: 403, body: githubError(403, 'Resource not accessible by integration', docs) };
    }
    const list = repository.issues.get(comment.issue) ?? [];
    list.splice(list.indexOf(comment), 1);
    return { status: 204, body: undefined };
  }

  /** GraphQL: the viewer, and nothing else. */
  private graphql(body: ParsedBody): Reply {
    const query = isObject(body.value) && typeof body.value.query === 'string' ? body.value.query : '';
    if (!/\bviewer\s*\{/.test(query)) {
      return { status: 200, body: { errors: [{ message: 'The simulator answers the viewer query only.' }] } };
    }
    const user = this.scenario.user ?? GITHUB_ACTIONS_BOT;
    return { status: 200, body: { data: { viewer: { login: user.login, databaseId: user.id } } } };
  }

  /** The comment text of a create / update, or the reply refusing it (403 read-only, 400, 422). */
  private validBody(body: ParsedBody, docs: string): string | Reply {
    if (this.scenario.readOnly) {
      return { status: 403, body: githubError(403, 'Resource not accessible by integration', docs) };
    }
    if (body.invalid) return { status: 400, body: githubError(400, 'Problems parsing JSON', docs) };
    const value = isObject(body.value) ? body.value.body : undefined;
    if (value === undefined) {
      return { status: 422, body: githubError(422, 'Invalid request.\n\n"body" wasn\'t supplied.', docs) };
    }
    if (typeof value !== 'string') {
      const shown = value === null ? 'nil' : JSON.stringify(value);
      const message = `Invalid request.\n\nFor 'properties/body', ${shown} is not a string.`;
      return { status: 422, body: githubError(422, message, docs) };
    }
    // GitHub counts characters (code points), not UTF-16 units.
    if ([...value].length > MAX_BODY_LENGTH) {
      return {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'IssueComment',
              code: 'unprocessable',
              field: 'data',
              message: `Body is too long (maximum is ${MAX_BODY_LENGTH} characters)`,
            },
          ],
          documentation_url: docs,
          status: '422',
        },
      };
    }
    return value;
  }

  private listPage(repository: Repository, issue: number, list: StoredComment[], path: string): Reply {
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    const base = `${this.url}/repositories/${repository.id}/issues/${issue}/comments`;
    return this.page(base, list, query, (c) => this.render(repository, c));
  }

  /** The pulls endpoints; undefined for a pull request that does not exist. */
  private pullsAnswer(route: Route, repository: Repository, path: string): Reply | undefined {
    const here = `${repository.owner}/${repository.repo}`.toLowerCase();
    const all: SimPull[] = this.scenario.pulls ?? [SAMPLE_PULL_REQUEST];
    const pulls = all.filter((p) => `${p.owner}/${p.repo}`.toLowerCase() === here);
    const render = (pull: SimPull) => renderPull(pull, this.url);
    if (route.operation === 'getPull') {
      const pull = pulls.find((p) => p.number === route.number);
      return pull && { status: 200, body: render(pull) };
    }
    if (route.operation === 'commitPulls') {
      const inBase = (p: SimPull) => (p.head ?? here).toLowerCase() === here;
      return { status: 200, body: pulls.filter((p) => p.headSha === route.sha && inBase(p)).map(render) };
    }
    const query = new URLSearchParams(path.split('?')[1] ?? '');
    const state = query.get('state') ?? 'open';
    const head = query.get('head')?.toLowerCase();
    const matching = pulls
      .filter((p) => state === 'all' || (p.state ?? 'open') === state)
      .filter((p) => !head || `${(p.head ?? here).split('/')[0]}:${p.headRef}`.toLowerCase() === head)
      .sort((a, b) => b.number - a.number); // GitHub's default: newest first
    return this.page(`${this.url}/repositories/${repository.id}/pulls`, matching.map(render), query);
  }

  /** One page of a list, with GitHub's Link header (prev, next, last, first; the query kept). */
  private page<T>(
    base: string,
    all: T[],
    query: URLSearchParams,
    render: (item: T) => unknown = (item) => item,
  ): Reply {
    const perPage = Math.min(positiveInt(query.get('per_page')) ?? 30, 100);
    const page = positiveInt(query.get('page')) ?? 1;
    const last = Math.max(1, Math.ceil(all.length / perPage));
    const link = (p: number, rel: string) => {
      const q = new URLSearchParams(query);
      q.set('page', String(p));
      return `<${base}?${q}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (page > 1) links.push(link(page - 1, 'prev'));
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    if (page > 1) links.push(link(1, 'first'));
    const body = all.slice((page - 1) * perPage, page * perPage).map(render);
    return { status: 200, body, headers: links.length > 0 ? { link: links.join(', ') } : {} };
  }

  /** Now at GitHub's one-second resolution, and at least a second after the previous stamp. */
  private stamp(): string {
    const now = Math.floor(Date.now() / 1000) * 1000;
    this.lastStamp = Math.max(now, this.lastStamp + 1000);
    return githubTime(this.lastStamp);
  }

  private repository(owner: string, repo: string, create: true): Repository;
  private repository(owner: string, repo: string, create: boolean): Repository | undefined;
  private repository(owner: string, repo: string, create: boolean): Repository | undefined {
    const key = `${owner}/${repo}`.toLowerCase();
    let repository = this.repositories.get(key);
    if (!repository && create) {
      repository = { id: this.nextRepositoryId++, owner, repo, issues: new Map() };
      this.repositories.set(key, repository);
    }
    return repository;
  }

  private render(repository: Repository, comment: StoredComment): IssueComment {
    const { owner, repo } = repository;
    const api = `${this.url}/repos/${owner}/${repo}`;
    return {
      url: commentUrl(this.url, repository, comment.id),
      html_url: `https://github.com/${owner}/${repo}/pull/${comment.issue}#issuecomment-${comment.id}`,
      issue_url: `${api}/issues/${comment.issue}`,
      id: comment.id,
      node_id: `IC_kwDO${Buffer.from(`${repository.id}:${comment.id}`).toString('base64url')}`,
      user: renderUser(comment.user),
      created_at: comment.createdAt,
      updated_at: comment.updatedAt,
      author_association: comment.authorAssociation,
      body: comment.body,
      reactions: {
        url: `${api}/issues/comments/${comment.id}/reactions`,
        total_count: 0,
        '+1': 0,
        '-1': 0,
        laugh: 0,
        hooray: 0,
        confused: 0,
        heart: 0,
        rocket: 0,
        eyes: 0,
      },
      performed_via_github_app: null,
    };
  }
}

// ---- pull_request event ----

export interface PullRequestEventOptions {
  owner: string;
  repo: string;
  number: number;
  /** Default 'opened'. */
  action?: string;
  /** Default 40 hex digits derived from the number. */
  headSha?: string;
  /** Default 'feature-{number}'. */
  headRef?: string;
  /** Default 'main'. */
  baseRef?: string;
  baseSha?: string;
  /** Author of the pull request and sender of the event; default HUMAN_USER. */
  user?: SimUser;
}

/** The pull request the end-to-end tests comment on: octo/shop#7, head feature-7 at feedface…. */
export const SAMPLE_PULL_REQUEST = {
  owner: 'octo',
  repo: 'shop',
  number: 7,
  headSha: 'feedface'.padEnd(40, '0'),
  headRef: 'feature-7',
} as const satisfies PullRequestEventOptions;

/**
 * A minimal but realistic `pull_request` webhook payload, to write to the file named by
 * GITHUB_EVENT_PATH (with GITHUB_EVENT_NAME=pull_request). The head is in the same repository.
 */
export function pullRequestEvent(options: PullRequestEventOptions) {
  const { owner, repo, number } = options;
  const user = renderUser(options.user ?? HUMAN_USER);
  const ownerUser = renderUser({ login: owner, id: 9919, type: 'User' });
  const fullName = `${owner}/${repo}`;
  const repository = {
    id: FIRST_REPOSITORY_ID,
    node_id: 'R_kgDOSimRepo',
    name: repo,
    full_name: fullName,
    private: false,
    owner: ownerUser,
    html_url: `https://github.com/${fullName}`,
    url: `https://api.github.com/repos/${fullName}`,
    default_branch: options.baseRef ?? 'main',
  };
  const sha = (seed: string) => seed.padEnd(40, '0').slice(0, 40);
  const head = {
    label: `${owner}:${options.headRef ?? `feature-${number}`}`,
    ref: options.headRef ?? `feature-${number}`,
    sha: options.headSha ?? sha(`a${number}`),
    user: ownerUser,
    repo: repository,
  };
  const base = {
    label: `${owner}:${options.baseRef ?? 'main'}`,
    ref: options.baseRef ?? 'main',
    sha: options.baseSha ?? sha(`b${number}`),
    user: ownerUser,
    repo: repository,
  };
  return {
    action: options.action ?? 'opened',
    number,
    pull_request: {
      url: `https://api.github.com/repos/${fullName}/pulls/${number}`,
      id: 1_000_000 + number,
      node_id: `PR_kwDOSim${number}`,
      html_url: `https://github.com/${fullName}/pull/${number}`,
      issue_url: `https://api.github.com/repos/${fullName}/issues/${number}`,
      comments_url: `https://api.github.com/repos/${fullName}/issues/${number}/comments`,
      number,
      state: 'open',
      locked: false,
      title: `Pull request ${number}`,
      user,
      body: null,
      draft: false,
      merged: false,
      head,
      base,
    },
    repository,
    sender: user,
  };
}

// ---- helpers ----

/** The pulls routes after /repos/{owner}/{repo} (GET only). */
function pullsRoute(rest: string[]): Omit<Route, 'repo'> | undefined {
  const [a, b, c, ...more] = rest;
  if (more.length > 0) return undefined;
  if (a === 'pulls' && b === undefined) return { operation: 'listPulls', number: 0 };
  if (a === 'pulls' && isId(b) && c === undefined) return { operation: 'getPull', number: Number(b) };
  if (a === 'commits' && b && /^[0-9a-f]{4,40}$/i.test(b) && c === 'pulls') {
    return { operation: 'commitPulls', number: 0, sha: b };
  }
  return undefined;
}

/** A pull request as the REST API shows it, as far as a client of the pulls endpoints reads it. */
function renderPull(pull: SimPull, apiUrl: string) {
  const base = `${pull.owner}/${pull.repo}`;
  const head = pull.head ?? base;
  const repository = (fullName: string) => ({
    name: fullName.split('/')[1],
    full_name: fullName,
    owner: { login: fullName.split('/')[0] },
    fork: fullName !== base,
    url: `${apiUrl}/repos/${fullName}`,
  });
  return {
    url: `${apiUrl}/repos/${base}/pulls/${pull.number}`,
    id: 1_000_000 + pull.number,
    number: pull.number,
    state: pull.state ?? 'open',
    html_url: `https://github.com/${base}/pull/${pull.number}`,
    title: `Pull request ${pull.number}`,
    user: renderUser(HUMAN_USER),
    head: {
      label: `${head.split('/')[0]}:${pull.headRef}`,
      ref: pull.headRef,
      sha: pull.headSha,
      repo: repository(head),
    },
    base: { label: `${pull.owner}:main`, ref: 'main', sha: 'b'.repeat(40), repo: repository(base) },
  };
}

function commentUrl(apiUrl: string, repository: Repository, id: number): string {
  return `${apiUrl}/repos/${repository.owner}/${repository.repo}/issues/comments/${id}`;
}

function renderUser(user: SimUser): components['schemas']['simple-user'] {
  const bot = user.type === 'Bot';
  const profile = `https://api.github.com/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id: user.id,
    node_id: Buffer.from(`04:${user.type}${user.id}`).toString('base64'),
    avatar_url: bot
      ? 'https://avatars.githubusercontent.com/in/15368?v=4'
      : `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: profile,
    html_url: bot
      ? `https://github.com/apps/${user.login.replace(/\[bot\]$/, '')}`
      : `https://github.com/${user.login}`,
    followers_url: `${profile}/followers`,
    following_url: `${profile}/following{/other_user}`,
    gists_url: `${profile}/gists{/gist_id}`,
    starred_url: `${profile}/starred{/owner}{/repo}`,
    subscriptions_url: `${profile}/subscriptions`,
    organizations_url: `${profile}/orgs`,
    repos_url: `${profile}/repos`,
    events_url: `${profile}/events{/privacy}`,
    received_events_url: `${profile}/received_events`,
    type: user.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

function defaultAssociation(user: SimUser): AuthorAssociation {
  return user.type === 'Bot' ? 'NONE' : 'MEMBER';
}

function issueComments(repository: Repository, issue: number, create: true): StoredComment[];
function issueComments(repository: Repository, issue: number, create: boolean): StoredComment[] | undefined;
function issueComments(repository: Repository, issue: number, create: boolean): StoredComment[] | undefined {
  let list = repository.issues.get(issue);
  if (!list && create) {
    list = [];
    repository.issues.set(issue, list);
  }
  return list;
}

function findComment(repository: Repository, id: number): StoredComment | undefined {
  for (const list of repository.issues.values()) {
    const found = list.find((c) => c.id === id);
    if (found) return found;
  }
  return undefined;
}

function faultReply(status: number, body?: unknown, retryAfter?: string, rateLimitReset?: number): Reply {
  const headers: Record<string, string> = {};
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  if (rateLimitReset !== undefined) {
    Object.assign(headers, {
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '5000',
      'x-ratelimit-reset': String(rateLimitReset),
      'x-ratelimit-resource': 'core',
    });
  }
  return { status, body: body ?? githubError(status, STATUS_CODES[status] ?? 'Error'), headers };
}

/** ISO time without milliseconds, as GitHub writes it. */
function githubTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isId(segment: string | undefined): segment is string {
  return segment !== undefined && /^[1-9]\d{0,15}$/.test(segment);
}

function positiveInt(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 ? value : undefined;
}

/** Writes pullRequestEvent(options) to a new temporary file and returns its path, for GITHUB_EVENT_PATH. */
export function pullRequestEventFile(options: PullRequestEventOptions): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'event-')), 'event.json');
  fs.writeFileSync(file, JSON.stringify(pullRequestEvent(options)));
  return file;
}

/** What the runner gives a step on a pull_request event of SAMPLE_PULL_REQUEST, with GitHub at `apiUrl`. */
export function pullRequestEnv(apiUrl: string): Record<string, string> {
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: pullRequestEventFile(SAMPLE_PULL_REQUEST),
    GITHUB_API_URL: apiUrl,
    GITHUB_REPOSITORY: `${SAMPLE_PULL_REQUEST.owner}/${SAMPLE_PULL_REQUEST.repo}`,
  };
}
