import { nodeBinaries, postStepEnv, runDist } from '../helpers/dist-runner.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { eventFile } from '../simulator/github-events.js';
import { type ProjectScript, Simulator } from '../simulator/simulator.js';

/** The check run and the gate against the base branch, dist/index.js run as the runner runs it. */
const { owner, repo, number } = SAMPLE_PULL_REQUEST;
const [M1, M2, P1] = ['a1', 'a2', 'c1'].map((prefix) => prefix.padEnd(40, '0')) as [string, string, string];
const X_FAILS: ProjectScript = {
  statuses: ['RUNNING', 'FAILED'],
  testCases: [{ title: 'X', status: 'FAILED' }],
};

describe.each(nodeBinaries())('check runs, dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  let gh: GitHubSimulator;
  beforeEach(async () => {
    gh = await GitHubSimulator.start({
      commits: [
        { owner, repo, sha: M1, parents: [] },
        { owner, repo, sha: M2, parents: [M1] },
        { owner, repo, sha: P1, parents: [M2] },
      ],
      branches: [{ owner, repo, name: 'main', sha: M2 }],
      pulls: [{ owner, repo, number, headSha: P1, headRef: 'feature-7', baseRef: 'main' }],
    });
  });
  afterEach(async () => {
    await sim?.stop();
    await gh?.stop();
  });

  const common = () => ({
    GITHUB_API_URL: gh.url,
    GITHUB_REPOSITORY: `${owner}/${repo}`,
    GITHUB_RUN_ID: '4242',
  });
  const push = (sha: string) => ({
    ...common(),
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SHA: sha,
    GITHUB_REF_TYPE: 'branch',
    GITHUB_REF_NAME: 'main',
    GITHUB_EVENT_PATH: eventFile({ ref: 'refs/heads/main', after: sha }),
  });
  const inputs = (extra: Record<string, string> = {}) =>
    projectInputs(sim, { 'github-token': DEFAULT_TOKEN, 'fail-on': 'new', ...extra });

  test("main's failure is known to the pull request's first run: it passes, and both commits carry their result", async () => {
    sim = await Simulator.start({ project: X_FAILS });
    const onMain = await runDist(inputs(), { node: bin, env: push(M2) });
    expect(onMain.code).toBe(1);
    const [mainRun] = gh.checkRuns(owner, repo, M2);
    expect(mainRun).toMatchObject({ name: 'Test run: project proj-1', conclusion: 'failure' });
    expect(onMain.outputs['check-run-url']).toBe(mainRun?.html_url);

    const env = {
      ...common(),
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: pullRequestEventFile({ ...SAMPLE_PULL_REQUEST, headSha: P1 }),
    };
    const onPullRequest = await runDist(inputs({ 'pr-comment': 'always' }), { node: bin, env });
    expect(onPullRequest.code).toBe(0);
    expect(onPullRequest.outputs).toMatchObject({ status: 'FAILED', success: 'true', 'new-failures': '0' });
    expect(onPullRequest.stdout).toContain(
      'Compared with main at a200000 (the base branch): 0 new failures, 0 flaky on main, 1 failing on main, 0 fixed.',
    );
    expect(gh.checkRuns(owner, repo, P1)).toMatchObject([{ conclusion: 'success' }]);
    expect(annotations(onPullRequest.stdout, 'warning')).toEqual([]);
  });

  test('killed while the run runs: the post step completes the check run the main step left in progress', async () => {
    sim = await Simulator.start({ project: { statuses: ['RUNNING'] } });
    const main = await runDist(inputs({ 'cancel-on-abort': 'false' }), {
      node: bin,
      env: push(M2),
      onSpawn: (child) => {
        void sim.waitForRequests('getProjectRun').then(() => child.kill('SIGKILL'));
      },
    });
    expect(main.state['checkRunId-0']).toMatch(/^\d+$/);
    expect(gh.checkRuns(owner, repo, M2)).toMatchObject([{ status: 'in_progress' }]);
    const post = await runDist(inputs({ 'cancel-on-abort': 'false' }), {
      node: bin,
      env: { ...push(M2), ...postStepEnv(main.state) },
    });
    expect(post.code).toBe(0);
    expect(gh.checkRuns(owner, repo, M2)).toMatchObject([{ status: 'completed', conclusion: 'cancelled' }]);
  });
});
