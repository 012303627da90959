/**
 * A simulator of the test-run service, for the action's tests, demo and benchmark.
 *
 * It plays the whole interface (project runs and test suite runs) over real HTTP on 127.0.0.1,
 * scripted by a `Scenario`: how runs progress, which ids exist, and which requests fail and how.
 * Every request is logged, so a test can check what the client sent.
 *
 * Choices where the interface leaves things open (see also the comments below):
 * - Order of checks for a request: route (unknown -> 404 'Not found', no auth needed), faults,
 *   auth (401), body (400 on invalid JSON), then the operation itself.
 * - A faulted request changes no state. A 'delay' fault answers normally after the delay (state
 *   changes when it answers); 'cut' acts like a normal answer whose body never arrives whole;
 *   'status', 'hang' and 'reset' create nothing and advance nothing.
 * - Request numbers (`LoggedRequest.n`, `FaultRule.requests`) count every request of an operation
 *   since the simulator started; `setScenario` does not reset them.
 * - A run's script is fixed when the run is created (from the scenario current at that moment).
 * - `statuses` progress by successful (not faulted, authorised) GETs of that run.
 */

import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import { type AppTestsOptions, runAppTests } from './app-tests.js';
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

export type Operation =
  | 'startProjectRun' // POST {prefix}/v1/projects/{projectId}/runs
  | 'getProjectRun' // GET  {prefix}/v1/projects/{projectId}/runs/{runId}
  | 'cancelProjectRun' // POST {prefix}/v1/projects/{projectId}/runs/cancel   body {where:{runId}}
  | 'startSuiteRun' // POST {prefix}/v1/testSuite/{testSuiteId}/run
  | 'getSuiteRunStatus' // GET  {prefix}/v1/testSuiteRun/{testSuiteRunId}/status
  | 'getSuiteRunResult'; // GET  {prefix}/v1/testSuiteRun/{testSuiteRunId}/result

export interface SimTestCase {
  title: string;
  /** Omitted from the response when undefined (to exercise clients against a missing status). */
  status?: string;
  durationMs?: number;
  /** Suite results: the test's id, default `test-<n>`. */
  testId?: string;
}

export interface ProjectScript {
  /** Status returned by the 1st, 2nd, ... GET of a run; the last one repeats. Takes precedence over the times. */
  statuses?: string[];
  /** Time-based alternative (used when `statuses` is absent): QUEUED for queueMs, RUNNING for runMs, then finalStatus. Defaults 0, 0, 'PASSED'. */
  queueMs?: number;
  runMs?: number;
  finalStatus?: string;
  /** Default: three passing cases. */
  testCases?: SimTestCase[];
}

export interface SuiteScript {
  /** Status returned by successive status GETs ('RUNNING' | 'FINISHED' ...); last repeats. Default ['RUNNING','FINISHED']. */
  statuses?: string[];
  /** Default 'Smoke suite'. */
  testSuiteName?: string;
  /** Default 'proj-1'. */
  projectId?: string;
  /** Returned as results [{runId, testId, testName: title, status}] (status omitted when undefined). Default: three passing cases. */
  testCases?: SimTestCase[];
}

export type Fault =
  // body default {error: '<reason phrase>'}; afterMs: answered that late
  | { kind: 'status'; status: number; retryAfter?: string; body?: unknown; afterMs?: number }
  | { kind: 'reset'; afterMs?: number } // destroy the socket without any answer (after reading the request)
  // the operation takes effect; after afterMs the headers and half the body are sent, then the socket is destroyed
  | { kind: 'cut'; afterMs?: number }
  | { kind: 'hang' } // read the request, never answer (socket stays open until stop())
  | { kind: 'delay'; ms: number } // answer normally, after ms
  | { kind: 'not-json' } // 200 with an HTML body, content-type text/html
  // a redirect to `location` (absolute, or relative to the request), with no body
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string }
  // 200 with a JSON body that never ends: chunks are written as fast as the client reads them
  | { kind: 'endless' }
  | { kind: 'body'; body: unknown }; // 200 with exactly this JSON body

export type FaultRule = JsonServerFaultRule<Operation, Fault>;
export type LoggedRequest = JsonServerRequest<Operation>;

export interface Scenario {
  /** Default 'test-api-key'; anything else in `Authorization: Bearer <key>` -> 401 {error:'Invalid API key'}. */
  apiKey?: string;
  /** Path prefix the API is mounted under, e.g. '/api' (default ''); other paths -> 404 {error:'Not found'}. */
  prefix?: string;
  project?: ProjectScript;
  suite?: SuiteScript;
  /** A script of its own for a project or suite id, over `project` and `suite` (several targets in one step). */
  projects?: Record<string, ProjectScript>;
  suites?: Record<string, SuiteScript>;
  /**
   * Ids given to the runs started or created, in order (project and suite runs share the list);
   * past its end, `run-N` and `suite-run-N`. For ids the service should never send.
   */
  runIds?: string[];
  /** When set, other project ids -> 404 {error:'Project <id> not found'}. */
  knownProjectIds?: string[];
  /** When set, other test suite ids -> 404 {error:'Test suite <id> not found'}. */
  knownSuiteIds?: string[];
  faults?: FaultRule[];
  /** When set, a suite run with `urlReplacements` fetches each replacement URL: one case per URL (app-tests.ts). */
  app?: AppTestsOptions;
}

export const DEFAULT_API_KEY = 'test-api-key';

export const DEFAULT_TEST_CASES: readonly SimTestCase[] = [
  { title: 'login works', status: 'PASSED', durationMs: 1200 },
  { title: 'checkout completes', status: 'PASSED', durationMs: 2300 },
  { title: 'search returns results', status: 'PASSED', durationMs: 800 },
];

const FINAL_PROJECT_STATUSES = new Set(['PASSED', 'FAILED', 'TIMEDOUT', 'INTERRUPTED', 'CANCELLED']);

interface ProjectRun {
  id: string;
  projectId: string;
  script: ProjectScript;
  branch?: string;
  createdAt: number;
  /** Successful GETs so far. */
  gets: number;
  /** Set by a cancel request: 'CANCELLED', or the final status the run already had (it stays so). */
  override?: string;
  cancelledAt?: number;
  /** Whether the run had left the queue when it was cancelled. */
  startedBeforeCancel?: boolean;
}

interface SuiteRun {
  id: string;
  testSuiteId: string;
  script: SuiteScript;
  statusGets: number;
  options: Record<string, unknown>;
  /** With `Scenario.app`: the cases of the fetches, RUNNING until they are all done. */
  appTests?: { done: boolean; cases?: SimTestCase[]; finished?: Promise<void> };
}

interface Route {
  operation: Operation;
  /** Path parameters in order: projectId [, runId] | testSuiteId | testSuiteRunId. */
  params: string[];
}

export class Simulator extends JsonServer<Operation> {
  readonly url: string;
  readonly cancelledRunIds: string[] = [];

  private scenario: Scenario;
  private readonly projectRuns = new Map<string, ProjectRun>();
  private readonly suiteRuns = new Map<string, SuiteRun>();
  private nextProjectRun = 1;
  private nextSuiteRun = 1;
  private runsCreated = 0;

  private constructor(server: Server, scenario: Scenario, options: StartOptions) {
    super(server, options.clock);
    this.scenario = scenario;
    this.url = this.origin + normalisePrefix(scenario.prefix);
  }

  static async start(scenario: Scenario = {}, options: StartOptions = {}): Promise<Simulator> {
    return new Simulator(await listeningServer(options), scenario, options);
  }

  /** Replaces the scenario. Runs already created keep their script; request counts are not reset. */
  setScenario(scenario: Scenario): void {
    this.scenario = scenario;
  }

  /** Create a run directly (as if started earlier); returns its id. */
  createProjectRun(projectId: string, script?: ProjectScript, branch?: string): string {
    const id = this.scriptedRunId() ?? `run-${this.nextProjectRun++}`;
    this.projectRuns.set(id, {
      id,
      projectId,
      script: script ?? this.scenario.projects?.[projectId] ?? this.scenario.project ?? {},
      branch,
      createdAt: this.clock.now(),
      gets: 0,
    });
    return id;
  }

  createSuiteRun(testSuiteId: string, script?: SuiteScript, options: Record<string, unknown> = {}): string {
    const id = this.scriptedRunId() ?? `suite-run-${this.nextSuiteRun++}`;
    this.suiteRuns.set(id, {
      id,
      testSuiteId,
      script: script ?? this.scenario.suites?.[testSuiteId] ?? this.scenario.suite ?? {},
      statusGets: 0,
      options: { ...options, environment: options.environment ?? 'ALL' },
    });
    return id;
  }

  private scriptedRunId(): string | undefined {
    return this.scenario.runIds?.[this.runsCreated++];
  }

  // ---- request handling ----

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = this.route(req.method ?? 'GET', req.url ?? '/');
    const { n, body } = await this.receive(req, route?.operation ?? 'unknown');
    if (this.stopped) return;

    if (!route) {
      send(res, { status: 404, body: { error: 'Not found' } });
      return;
    }

    const fault = faultFor(this.scenario.faults, route.operation, n);
    switch (fault?.kind) {
      case undefined:
        send(res, this.answer(route, req, body));
        return;
      case 'status': {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
        const errorBody = fault.body ?? { error: STATUS_CODES[fault.status] ?? 'Error' };
        this.later(fault.afterMs ?? 0, () => send(res, { status: fault.status, body: errorBody, headers }));
        return;
      }
      case 'reset':
        this.later(fault.afterMs ?? 0, () => req.socket.destroy());
        return;
      case 'cut': {
        const reply = this.answer(route, req, body);
        const text = JSON.stringify(reply.body) ?? '';
        this.later(fault.afterMs ?? 0, () => {
          res.writeHead(reply.status, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(text),
            ...reply.headers,
          });
          res.write(text.slice(0, Math.floor(text.length / 2)), () => req.socket.destroy());
        });
        return;
      }
      case 'hang':
        return; // the socket stays open until the client gives up or stop() destroys it
      case 'delay':
        this.later(fault.ms, () => send(res, this.answer(route, req, body)));
        return;
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<!DOCTYPE html><html><head><title>Bad Gateway</title></head><body><h1>Oops</h1></body></html>',
        );
        return;
      case 'body':
        send(res, { status: 200, body: fault.body });
        return;
      case 'redirect':
        res.writeHead(fault.status, { location: fault.location, 'content-length': 0 });
        res.end();
        return;
      case 'endless':
        streamForever(res, '{"status": "RUNNING", "padding": "');
        return;
    }
  }

  private route(method: string, rawPath: string): Route | undefined {
    const pathOnly = rawPath.split('?')[0] ?? '';
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
    const [v1, collection, id, a, b] = params;
    if (v1 !== 'v1' || id === undefined) return undefined;
    const len = params.length;
    if (collection === 'projects') {
      if (method === 'POST' && len === 4 && a === 'runs')
        return { operation: 'startProjectRun', params: [id] };
      if (method === 'POST' && len === 5 && a === 'runs' && b === 'cancel')
        return { operation: 'cancelProjectRun', params: [id] };
      if (method === 'GET' && len === 5 && a === 'runs' && b !== undefined)
        return { operation: 'getProjectRun', params: [id, b] };
    }
    if (collection === 'testSuite' && method === 'POST' && len === 4 && a === 'run')
      return { operation: 'startSuiteRun', params: [id] };
    if (collection === 'testSuiteRun' && method === 'GET' && len === 4) {
      if (a === 'status') return { operation: 'getSuiteRunStatus', params: [id] };
      if (a === 'result') return { operation: 'getSuiteRunResult', params: [id] };
    }
    return undefined;
  }

  private authorised(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    return match?.[1] === (this.scenario.apiKey ?? DEFAULT_API_KEY);
  }

  private answer(route: Route, req: IncomingMessage, body: ParsedBody): Reply {
    if (!this.authorised(req)) {
      return { status: 401, body: { error: 'Invalid API key' }, headers: { 'www-authenticate': 'Bearer' } };
    }
    const [id = '', runId = ''] = route.params;
    switch (route.operation) {
      case 'startProjectRun':
        return this.startProjectRun(id, body);
      case 'getProjectRun':
        return this.getProjectRun(id, runId);
      case 'cancelProjectRun':
        return this.cancelProjectRun(id, body);
      case 'startSuiteRun':
        return this.startSuiteRun(id, body);
      case 'getSuiteRunStatus':
        return this.getSuiteRunStatus(id);
      case 'getSuiteRunResult':
        return this.getSuiteRunResult(id);
    }
  }

  // ---- project runs ----

  private unknownProject(projectId: string): Reply | undefined {
    const known = this.scenario.knownProjectIds;
    if (known && !known.includes(projectId)) {
      return { status: 404, body: { error: `Project ${projectId} not found` } };
    }
    return undefined;
  }

  private findProjectRun(projectId: string, runId: string): ProjectRun | undefined {
    const run = this.projectRuns.get(runId);
    return run && run.projectId === projectId ? run : undefined;
  }

  private startProjectRun(projectId: string, body: ParsedBody): Reply {
    const object = bodyObject(body);
    if (!object.ok) return object.reply;
    const notFound = this.unknownProject(projectId);
    if (notFound) return notFound;
    const branch = typeof object.value.branch === 'string' ? object.value.branch : undefined;
    return { status: 200, body: { runId: this.createProjectRun(projectId, undefined, branch) } };
  }

  private getProjectRun(projectId: string, runId: string): Reply {
    const notFound = this.unknownProject(projectId);
    if (notFound) return notFound;
    const run = this.findProjectRun(projectId, runId);
    if (!run) return { status: 404, body: { error: `Run ${runId} not found` } };
    run.gets++;
    return { status: 200, body: readForm(run, this.clock.now()) };
  }

  private cancelProjectRun(projectId: string, body: ParsedBody): Reply {
    const object = bodyObject(body);
    if (!object.ok) return object.reply;
    const where = object.value.where;
    const runId = isObject(where) && typeof where.runId === 'string' ? where.runId : undefined;
    if (runId === undefined) return { status: 400, body: { error: 'where.runId is required' } };
    const notFound = this.unknownProject(projectId);
    if (notFound) return notFound;
    const run = this.findProjectRun(projectId, runId);
    if (!run) return { status: 404, body: { error: `Run ${runId} not found` } };
    this.cancelledRunIds.push(runId);
    if (run.override === undefined) {
      const now = this.clock.now();
      const status = scriptedStatus(run, now);
      if (FINAL_PROJECT_STATUSES.has(status)) {
        run.override = status; // already final: it stays as it was
      } else {
        run.override = 'CANCELLED';
        run.cancelledAt = now;
        run.startedBeforeCancel = status !== 'QUEUED';
      }
    }
    return { status: 200, body: {} };
  }

  // ---- suite runs ----

  private startSuiteRun(testSuiteId: string, body: ParsedBody): Reply {
    const object = bodyObject(body);
    if (!object.ok) return object.reply;
    const known = this.scenario.knownSuiteIds;
    if (known && !known.includes(testSuiteId)) {
      return { status: 404, body: { error: `Test suite ${testSuiteId} not found` } };
    }
    const id = this.createSuiteRun(testSuiteId, undefined, object.value);
    const run = this.suiteRuns.get(id) as SuiteRun;
    if (this.scenario.app) {
      const appTests: SuiteRun['appTests'] = { done: false };
      run.appTests = appTests;
      appTests.finished = runAppTests(run.options, this.scenario.app).then((cases) => {
        Object.assign(appTests, { done: true, cases });
      });
    }
    return {
      status: 200,
      body: {
        projectId: run.script.projectId ?? 'proj-1',
        testSuiteRunId: id,
        testSuiteName: run.script.testSuiteName ?? 'Smoke suite',
        options: run.options,
      },
    };
  }

  /** Resolves once the tests a suite run runs against the app (`Scenario.app`) are done. */
  appTestsDone(testSuiteRunId: string): Promise<void> {
    return this.suiteRuns.get(testSuiteRunId)?.appTests?.finished ?? Promise.resolve();
  }

  private getSuiteRunStatus(testSuiteRunId: string): Reply {
    const run = this.suiteRuns.get(testSuiteRunId);
    if (!run) return { status: 404, body: { error: `Test suite run ${testSuiteRunId} not found` } };
    if (run.appTests?.done === false) return { status: 200, body: { status: 'RUNNING' } };
    run.statusGets++;
    const statuses = run.script.statuses?.length ? run.script.statuses : ['RUNNING', 'FINISHED'];
    return { status: 200, body: { status: pick(statuses, run.statusGets) } };
  }

  /** Answers the scripted results whatever the run's status. */
  private getSuiteRunResult(testSuiteRunId: string): Reply {
    const run = this.suiteRuns.get(testSuiteRunId);
    if (!run) return { status: 404, body: { error: `Test suite run ${testSuiteRunId} not found` } };
    const results = (run.appTests?.cases ?? run.script.testCases ?? DEFAULT_TEST_CASES).map((tc, i) => ({
      runId: `${run.id}-case-${i + 1}`,
      testId: tc.testId ?? `test-${i + 1}`,
      testName: tc.title,
      ...(tc.status === undefined ? {} : { status: tc.status }),
    }));
    return {
      status: 200,
      body: {
        projectId: run.script.projectId ?? 'proj-1',
        testSuiteRunId: run.id,
        testSuiteName: run.script.testSuiteName ?? 'Smoke suite',
        results,
      },
    };
  }
}

// ---- project run read form ----

/** The n-th (1-based) element, the last one repeating; the first when n is 0. */
function pick(list: string[], n: number): string {
  return list[Math.min(Math.max(n, 1), list.length) - 1] as string;
}

function scriptedStatus(run: ProjectRun, now: number): string {
  const { statuses, queueMs = 0, runMs = 0, finalStatus = 'PASSED' } = run.script;
  if (statuses && statuses.length > 0) return pick(statuses, run.gets);
  const elapsed = now - run.createdAt;
  if (elapsed < queueMs) return 'QUEUED';
  if (elapsed < queueMs + runMs) return 'RUNNING';
  return finalStatus;
}

/**
 * Timestamps: a run starts at its creation (statuses script) or after queueMs (time-based), and a
 * scripted final status finishes it runMs later, or, when runMs is 0, after the sum of its test
 * case durations (1 s when that is 0 too), so finishedAt - startedAt is always positive.
 * A cancelled run finishes at the moment of the cancel request.
 */
function readForm(run: ProjectRun, now: number): Record<string, unknown> {
  const status = run.override ?? scriptedStatus(run, now);
  const { script } = run;
  const timeBased = !script.statuses?.length;
  const startedMs = run.createdAt + (timeBased ? (script.queueMs ?? 0) : 0);
  const testCases = script.testCases ?? DEFAULT_TEST_CASES;
  const casesMs = testCases.reduce((sum, tc) => sum + (tc.durationMs ?? 0), 0);
  const plannedMs = (script.runMs ?? 0) > 0 ? (script.runMs as number) : casesMs > 0 ? casesMs : 1000;
  const startedAt = new Date(startedMs).toISOString();
  const branch = run.branch === undefined ? {} : { branchName: run.branch };

  if (status === 'QUEUED') return { status, startedAt: null };
  if (status === 'CANCELLED') {
    if (run.cancelledAt !== undefined) {
      // Cancelled by a request: no results; startedAt only if it had left the queue.
      if (!run.startedBeforeCancel)
        return { status, finishedAt: new Date(run.cancelledAt).toISOString(), ...branch };
      const finishedMs = Math.max(run.cancelledAt, startedMs + 1);
      return { status, startedAt, finishedAt: new Date(finishedMs).toISOString(), ...branch };
    }
    return { status, startedAt, finishedAt: new Date(startedMs + plannedMs).toISOString(), ...branch };
  }
  if (FINAL_PROJECT_STATUSES.has(status)) {
    return {
      status,
      startedAt,
      finishedAt: new Date(startedMs + plannedMs).toISOString(),
      ...branch,
      results: {
        testCases: testCases.map((tc) => ({
          title: tc.title,
          ...(tc.status === undefined ? {} : { status: tc.status }),
          ...(tc.durationMs === undefined ? {} : { durationMs: tc.durationMs }),
        })),
      },
    };
  }
  // RUNNING, and any status the interface does not know, take the in-progress form.
  return { status, startedAt, ...branch };
}

// ---- HTTP helpers ----

/** A 200 whose JSON never ends: 64 KiB chunks, each written once the client has read the last. */
/** The request body as an object: an empty body counts as {}; invalid JSON or a non-object is a 400. */
function bodyObject(
  body: ParsedBody,
): { ok: true; value: Record<string, unknown> } | { ok: false; reply: Reply } {
  if (body.invalid) return { ok: false, reply: { status: 400, body: { error: 'Invalid JSON body' } } };
  if (body.value === undefined) return { ok: true, value: {} };
  if (!isObject(body.value)) {
    return { ok: false, reply: { status: 400, body: { error: 'Request body must be a JSON object' } } };
  }
  return { ok: true, value: body.value };
}
