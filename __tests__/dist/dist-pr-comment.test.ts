import { nodeBinaries, runDist } from '../helpers/dist-runner.js';
import { projectInputs, suiteInputs } from '../helpers/inputs.js';
import { annotations, visibleLog } from '../helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  type Scenario as GitHubScenario,
  GitHubSimulator,
  HUMAN_USER,
  MAX_BODY_LENGTH,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { DEFAULT_API_KEY, type ProjectScript, Simulator } from '../simulator/simulator.js';

/** The sticky pull request comment, dist/index.js run as the runner runs it on a pull_request event. */
const PR = SAMPLE_PULL_REQUEST;
const FAILING: ProjectScript = {
  statuses: ['FAILED'],
  testCases: [
    { title: 'checkout', status: 'FAILED' },
    { title: 'login', status: 'PASSED' },
  ],
};
const PASSING: ProjectScript = { statuses: ['PASSED'], testCases: [{ title: 'login', status: 'PASSED' }] };

describe.each(nodeBinaries())('the pull request comment, dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  let gh: GitHubSimulator;
  afterEach(async () => {
    await sim?.stop();
    await gh?.stop();
  });

  async function start(project: ProjectScript, github: GitHubScenario = {}): Promise<void> {
    sim = await Simulator.start({ project });
    gh = await GitHubSimulator.start(github);
  }

  /**
   * The runner's environment on a pull_request event (or `eventName`), with the API at the simulator.
   * Another `headSha` is a push: the pull request's head moves there.
   */
  function pullRequestEnv(eventName = 'pull_request', headSha: string = PR.headSha): Record<string, string> {
    if (headSha !== PR.headSha) gh.setScenario({ pulls: [{ ...PR, headSha }] });
    const eventFile = pullRequestEventFile({ ...PR, headSha });
    return {
      GITHUB_EVENT_NAME: eventName,
      GITHUB_EVENT_PATH: eventFile,
      GITHUB_API_URL: gh.url,
      GITHUB_HEAD_REF: PR.headRef,
      GITHUB_REF_NAME: `${PR.number}/merge`,
      GITHUB_RUN_ATTEMPT: '2',
    };
  }

  const commentInputs = (extra: Record<string, string> = {}) =>
    projectInputs(sim, {
      'poll-interval': '50ms',
      'pr-comment': 'always',
      'github-token': DEFAULT_TOKEN,
      ...extra,
    });

  const run = (inputs: Record<string, string>, eventName?: string) =>
    runDist(inputs, { node: bin, env: pullRequestEnv(eventName) });

  const comments = () => gh.comments(PR.owner, PR.repo, PR.number);

  test('a failing run creates one comment; a second run updates it in place', async () => {
    await start(FAILING);
    const first = await run(commentInputs());
    expect(first.code).toBe(1);
    expect(comments()).toHaveLength(1);
    const [comment] = comments();
    expect(first.outputs['comment-url']).toBe(comment?.html_url);
    expect(comment?.body).toContain('### ❌ Test run failed');
    expect(comment?.body).toContain('Commit <code>feedfac</code>');
    expect(comment?.body).toContain('/octo/shop/actions/runs/4242/attempts/2');
    expect(comment?.body).toContain('- ❌ FAILED · checkout');
    expect(first.stdout).toContain(`Commented on pull request #7: ${comment?.html_url}`);

    sim.setScenario({ project: PASSING });
    const second = await run(commentInputs());
    expect(second.code).toBe(0);
    expect(comments()).toHaveLength(1);
    expect(comments()[0]?.body).toContain('### ✅ Test run passed');
    expect(comments()[0]?.body).toContain('Run <code>run-2</code>');
    expect(second.outputs['comment-url']).toBe(comment?.html_url);
    expect(gh.count('createComment')).toBe(1);
    expect(gh.count('updateComment')).toBe(1);
  });

  test("a person's copy of the comment is never edited, and a comment deleted under the action is written anew", async () => {
    await start(FAILING);
    await run(commentInputs());
    const [ours] = comments();
    const [pasted] = gh.seedComments(PR.owner, PR.repo, PR.number, [
      { body: ours?.body ?? '', user: HUMAN_USER },
    ]);

    sim.setScenario({ project: PASSING });
    const second = await run(commentInputs());
    expect(comments().map((comment) => [comment.id, comment.user?.login])).toEqual([
      [ours?.id, 'github-actions[bot]'],
      [pasted?.id, HUMAN_USER.login],
    ]);
    expect(comments()[0]?.body).toContain('### ✅ Test run passed');
    expect(comments()[1]?.body).toBe(ours?.body);
    expect(second.outputs['comment-url']).toBe(ours?.html_url);

    gh.setScenario({ faults: [{ operation: 'updateComment', requests: [2], fault: { kind: 'deleted' } }] });
    const third = await run(commentInputs());
    expect(third.code).toBe(0);
    expect(comments().map((comment) => comment.user?.login)).toEqual([
      HUMAN_USER.login,
      'github-actions[bot]',
    ]);
    expect(third.outputs['comment-url']).toBe(comments()[1]?.html_url);
    expect(annotations(third.stdout, 'warning')).toEqual([]);
  });

  test('250 comments with ours on the third page: every page is read, ours updated, none created', async () => {
    await start(FAILING);
    const first = await run(commentInputs());
    const ours = comments()[0]?.body as string;
    const pr = { owner: PR.owner, repo: PR.repo, number: PR.number };
    await gh.stop();
    gh = await GitHubSimulator.start({
      pullRequests: [
        {
          ...pr,
          comments: [
            ...Array.from({ length: 220 }, (_, i) => ({ body: `chatter ${i}`, user: HUMAN_USER })),
            { body: ours },
            ...Array.from({ length: 29 }, (_, i) => ({ body: `more chatter ${i}`, user: HUMAN_USER })),
          ],
        },
      ],
    });
    expect(first.code).toBe(1);
    const second = await run(commentInputs());
    expect(gh.count('listComments')).toBe(3);
    expect(gh.count('createComment')).toBe(0);
    expect(gh.count('updateComment')).toBe(1);
    expect(comments()).toHaveLength(250);
    expect(comments()[220]?.body).toContain('Run <code>run-2</code>');
    expect(second.outputs['comment-url']).toBe(comments()[220]?.html_url);
  });

  test('a matrix of two targets keeps two comments, each updated by its own target only', async () => {
    await start(FAILING);
    await run(commentInputs({ environment: 'staging' }));
    await run(commentInputs({ environment: 'production' }));
    expect(comments()).toHaveLength(2);
    const [staging, production] = comments();
    expect(staging?.body).toContain('environment=staging');
    expect(production?.body).toContain('environment=production');

    sim.setScenario({ project: PASSING });
    await run(commentInputs({ environment: 'production' }));
    expect(comments()).toHaveLength(2);
    expect(comments()[0]?.body).toBe(staging?.body);
    expect(comments()[1]?.body).toContain('### ✅ Test run passed');
  });

  test('on-failure: a pass creates none; a failure creates one; a pass after it updates it', async () => {
    await start(PASSING);
    const pass = await run(commentInputs({ 'pr-comment': 'on-failure' }));
    expect(pass.code).toBe(0);
    expect(comments()).toHaveLength(0);
    expect(pass.outputs['comment-url']).toBe('');
    expect(pass.stdout).toContain(
      'No pull request comment: the step passed and there is no earlier comment to update.',
    );

    sim.setScenario({ project: FAILING });
    await run(commentInputs({ 'pr-comment': 'on-failure' }));
    expect(comments()).toHaveLength(1);

    sim.setScenario({ project: PASSING });
    const fixed = await run(commentInputs({ 'pr-comment': 'on-failure' }));
    expect(comments()).toHaveLength(1);
    expect(comments()[0]?.body).toContain('### ✅ Test run passed');
    expect(fixed.outputs['comment-url']).toBe(comments()[0]?.html_url);
  });

  test.each([
    [
      'a push event',
      { event: 'push' },
      /No pull request comment: the workflow runs on push, not on a pull request\./,
    ],
    [
      'wait: false',
      { inputs: { wait: 'false' } },
      /No pull request comment: the run was started with wait: false\./,
    ],
  ] as const)('%s: no comment request reaches GitHub, one log line says why', async (_name, given, line) => {
    await start(FAILING);
    const result = await run(
      commentInputs('inputs' in given ? given.inputs : {}),
      'event' in given ? given.event : undefined,
    );
    // a push of a branch other than the default one asks whether it is a pull request's head (round 7)
    expect(gh.commentCalls().filter((operation) => operation !== 'listPulls')).toEqual([]);
    expect(result.stdout.match(line)).toHaveLength(1);
    expect(result.outputs['comment-url']).toBe('');
  });

  test('a cancelled job: no comment, and the check run on the commit completed as cancelled', async () => {
    await start({ statuses: ['RUNNING'] });
    const result = await runDist(commentInputs(), {
      node: bin,
      env: pullRequestEnv(),
      onSpawn: (child) => {
        void sim.waitForRequests('getProjectRun').then(() => child.kill('SIGINT'));
      },
    });
    expect(result.outputs.status).toBe('CANCELLED');
    expect(result.stdout).toContain('No pull request comment: the job was cancelled.');
    expect(gh.commentCalls()).toEqual([]);
    expect(gh.checkRuns('octo', 'shop')).toMatchObject([{ status: 'completed', conclusion: 'cancelled' }]);
  });

  test('403 on create (a read-only token): the step keeps the run’s result, one warning naming the permission', async () => {
    await start(PASSING, { readOnly: true });
    const result = await run(commentInputs());
    expect(result.code).toBe(0);
    expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', 'comment-url': '' });
    expect(gh.count('createComment')).toBe(1);
    const warnings = annotations(result.stdout, 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/HTTP 403: Resource not accessible by integration\..*pull-requests: write/);
    // the pull request's head is in the repository itself: a fork's read-only token is not the cause
    expect(warnings[0]).not.toContain('fork');
  });

  test('a 500 answered after GitHub created the comment: not repeated, still exactly one comment', async () => {
    await start(FAILING, {
      faults: [
        { operation: 'createComment', requests: [1], fault: { kind: 'status-after-effect', status: 500 } },
      ],
    });
    const first = await run(commentInputs());
    expect(first.code).toBe(1);
    expect(gh.count('createComment')).toBe(1);
    expect(comments()).toHaveLength(1);
    expect(annotations(first.stdout, 'warning')).toEqual([
      expect.stringMatching(/Could not comment on pull request #7: HTTP 500/),
    ]);
    // the next run finds it by its marker
    await run(commentInputs());
    expect(comments()).toHaveLength(1);
    expect(gh.count('updateComment')).toBe(1);
  });

  test('20,000 failing test cases and hostile titles: one comment under GitHub’s limit, nothing notified', async () => {
    const hostile = ['@octocat look', 'fixes #12', 'see acme/shop#34', '@acme/reviewers <b>bold</b>'];
    await start({
      statuses: ['FAILED'],
      testCases: [
        ...hostile.map((title) => ({ title, status: 'FAILED' })),
        ...Array.from({ length: 20_000 }, (_, i) => ({
          title: `case ${i} ${'x'.repeat(200)}`,
          status: 'FAILED',
        })),
      ],
    });
    const result = await run(commentInputs());
    expect(result.outputs['comment-url']).not.toBe('');
    const body = comments()[0]?.body as string;
    expect(body.length).toBeLessThan(MAX_BODY_LENGTH);
    expect(body).toMatch(/- … and 19,?9\d\d more/);
    for (const raw of ['@octocat', '#12', 'acme/shop#34', '@acme/reviewers', '<b>'])
      expect(body).not.toContain(raw);
  });

  test('neither the API key, the token nor a sensitive override reaches the comment or the log', async () => {
    const secretTitle = `uses ${DEFAULT_API_KEY}, hush-4711 and ${DEFAULT_TOKEN}`;
    sim = await Simulator.start({ suite: { testCases: [{ title: secretTitle, status: 'FAILED' }] } });
    gh = await GitHubSimulator.start();
    const options = JSON.stringify({ variableOverrides: { PIN: { value: 'hush-4711', sensitive: true } } });
    const result = await run(
      suiteInputs(sim, {
        'pr-comment': 'always',
        'github-token': DEFAULT_TOKEN,
        options,
        'poll-interval': '50ms',
      }),
    );
    const body = comments()[0]?.body as string;
    expect(body).toContain('uses &#42;&#42;&#42;, &#42;&#42;&#42; and &#42;&#42;&#42;');
    for (const secret of [DEFAULT_API_KEY, 'hush-4711', DEFAULT_TOKEN]) {
      expect([secret, body.includes(secret), visibleLog(result.stdout).includes(secret)]).toEqual([
        secret,
        false,
        false,
      ]);
    }
  });
});
