import { nodeBinaries, runDist } from '../helpers/dist-runner.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import { DEFAULT_TOKEN, GitHubSimulator, type SimPull } from '../simulator/github.js';
import { deploymentStatusEvent, eventFile, workflowRunEvent } from '../simulator/github-events.js';
import { type ProjectScript, Simulator } from '../simulator/simulator.js';

/** dist/index.js on the events whose payload names no pull request: a preview deployment, workflow_run. */
const REPO = 'octo/shop';
const HEAD = 'feedface'.padEnd(40, '0');
const FORK_HEAD = 'f0f0f0f0'.padEnd(40, '1');
const OURS: SimPull = { owner: 'octo', repo: 'shop', number: 7, headSha: HEAD, headRef: 'feature-7' };
const FORKS: SimPull = { ...OURS, number: 9, headSha: FORK_HEAD, headRef: 'patch-1', head: 'stranger/shop' };
const failing = (...titles: string[]): ProjectScript => ({
  statuses: ['FAILED'],
  testCases: titles.map((title) => ({ title, status: 'FAILED' })),
});

describe.each(nodeBinaries())('where the comment goes, dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  let gh: GitHubSimulator;
  afterEach(async () => {
    await sim?.stop();
    await gh?.stop();
  });

  async function start(pulls: SimPull[], project: ProjectScript): Promise<void> {
    sim = await Simulator.start({ project });
    gh = await GitHubSimulator.start({ pulls });
  }

  const run = (eventName: string, payload: unknown, extra: Record<string, string> = {}) =>
    runDist(
      projectInputs(sim, {
        'poll-interval': '50ms',
        'pr-comment': 'always',
        'github-token': DEFAULT_TOKEN,
        ...extra,
      }),
      {
        node: bin,
        env: {
          GITHUB_EVENT_NAME: eventName,
          GITHUB_EVENT_PATH: eventFile(payload),
          GITHUB_API_URL: gh.url,
          GITHUB_SHA: 'defa017'.padEnd(40, '2'),
        },
      },
    );
  const preview = (sha: string) => deploymentStatusEvent({ repository: REPO, sha });
  const comments = (number: number) => gh.comments('octo', 'shop', number);

  test('deployment_status, two pushes with fail-on: new, main never tested: the comment names each commit, every failure fails the step', async () => {
    await start([OURS], failing('checkout'));
    const first = await run('deployment_status', preview(HEAD), { 'fail-on': 'new' });
    expect([first.code, first.outputs['comment-url']]).toEqual([1, comments(7)[0]?.html_url]);
    expect(comments(7)[0]?.body).toContain('Commit <code>feedfac</code>');

    const pushed = 'beef'.padEnd(40, '3');
    gh.setScenario({ pulls: [{ ...OURS, headSha: pushed }] });
    sim.setScenario({ project: failing('checkout', 'search') });
    const second = await run('deployment_status', preview(pushed), { 'fail-on': 'new' });
    // the first preview is no baseline: with nothing to compare with, every failure counts
    expect([second.code, second.outputs['new-failures'], second.outputs.fixed]).toEqual([1, '', '']);
    expect(comments(7)).toHaveLength(1);
    expect(comments(7)[0]?.body).toContain('### ❌ Test run failed\n');
    expect(comments(7)[0]?.body).toContain('Commit <code>beef333</code>');
  });

  test("deployment_status of a fork's pull request, and of a commit no open pull request has", async () => {
    await start([OURS, FORKS], failing('checkout'));
    await run('deployment_status', preview(FORK_HEAD));
    expect(comments(9)[0]?.body).toContain('Commit <code>f0f0f0f</code>');
    const orphan = await run('deployment_status', preview('abc'.padEnd(40, '4')));
    expect(orphan.stdout).toContain(
      'No pull request comment: no open pull request has commit abc4444 at its head.',
    );
    expect(annotations(orphan.stdout, 'warning')).toEqual([]);
    expect(gh.count('createComment')).toBe(1);
  });

  test('workflow_run from the same repository and from a fork: head_sha is the commit named', async () => {
    await start([OURS, FORKS], failing('checkout'));
    const same = workflowRunEvent({
      repository: REPO,
      headSha: HEAD,
      headBranch: 'feature-7',
      pullRequests: [7],
    });
    const fork = workflowRunEvent({
      repository: REPO,
      headSha: FORK_HEAD,
      headBranch: 'patch-1',
      headRepository: 'stranger/shop',
    });
    await run('workflow_run', same);
    await run('workflow_run', fork);
    expect(comments(7)[0]?.body).toContain('Commit <code>feedfac</code>');
    expect(comments(9)[0]?.body).toContain('Commit <code>f0f0f0f</code>');
    expect([comments(7)[0]?.body, comments(9)[0]?.body].join('')).not.toContain('defa017');
  });
});
