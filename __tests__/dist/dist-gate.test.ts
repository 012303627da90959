import { type DistResult, nodeBinaries, postStepEnv, runDist } from '../helpers/dist-runner.js';
import { visibleLines } from '../helpers/gfm.js';
import { projectInputs } from '../helpers/inputs.js';
import {
  DEFAULT_TOKEN,
  FIRST_WORKFLOW_RUN_ID,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
  type SimPull,
  type SimWorkflowRun,
} from '../simulator/github.js';
import {
  eventFile,
  mergeGroupEvent,
  mergeQueueBranch,
  pushEvent,
  scheduleEvent,
} from '../simulator/github-events.js';
import { type SimTestCase, Simulator } from '../simulator/simulator.js';

/**
 * One record, one judgment (round 7): the gate's six holes, and the headings that follow the
 * judgment, each tried against dist/index.js as the runner runs it. The base branch's results are
 * made by the action itself, on runs of main; the workflow's runs GitHub lists are kept in step
 * with the runs made (event, commit, branch, attempt, conclusion). Only what a user sees is
 * asserted: the step's outputs, the check runs on the commit tested, the headings of the comment and
 * the job summary.
 */
const { owner, repo, number } = SAMPLE_PULL_REQUEST;
const REPOSITORY = `${owner}/${repo}`;
const WORKFLOW = 'e2e.yml';
const FEATURE = SAMPLE_PULL_REQUEST.headRef;
const sha = (name: string) => name.padEnd(40, '0');
/** The runner's Node (24) where this machine has it, else this one: the gate does not depend on it. */
const node = nodeBinaries().at(-1) as { name: string; bin: string };

const failing = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'FAILED' }));
const passing = (...titles: string[]): SimTestCase[] => titles.map((title) => ({ title, status: 'PASSED' }));

let gh: GitHubSimulator;
/** octo/shop as GitHub answers it: commits (child -> parents), branches, open pull requests. */
let commits: Map<string, string[]>;
let branches: Map<string, string>;
let pulls: SimPull[];
/** The workflow's runs so far, in the order they were created; a re-run updates its run. */
let workflowRuns: SimWorkflowRun[];

beforeEach(async () => {
  commits = new Map();
  branches = new Map();
  pulls = [];
  workflowRuns = [];
  gh = await GitHubSimulator.start({ pulls: [] });
});
afterEach(async () => {
  await gh?.stop();
});

/** What GitHub answers from now on: the repository as it is, and the workflow's runs. */
function sync(): void {
  gh.setScenario({
    commits: [...commits].map(([commit, parents]) => ({ owner, repo, sha: commit, parents })),
    branches: [...branches].map(([name, head]) => ({ owner, repo, name, sha: head })),
    pulls,
    workflowRuns,
  });
}

/** Adds `names` as commits, each the child of the one before (the first of `parent`). */
function chain(names: string[], parent?: string): string[] {
  const shas = names.map(sha);
  shas.forEach((commit, i) => {
    const before = i === 0 ? parent : shas[i - 1];
    commits.set(commit, before ? [before] : []);
  });
  sync();
  return shas;
}

function setBranch(name: string, head: string): void {
  branches.set(name, head);
  sync();
}

/** Pull request #7 from feature-7 into main, open, its head at `head` (the branch too). */
function openPullRequest(head: string): void {
  pulls = [{ owner, repo, number, headSha: head, headRef: FEATURE, baseRef: 'main' }];
  setBranch(FEATURE, head);
}

/** An event: the runner's variables for it, and the workflow run it makes as GitHub lists it. */
interface Trigger {
  env: Record<string, string>;
  /** GITHUB_REF: the workflow's ref (GITHUB_WORKFLOW_REF names the workflow file at it). */
  ref: string;
  run: Pick<SimWorkflowRun, 'event' | 'headSha' | 'headBranch'>;
}

const branchEnv = (branch: string, commit: string) => ({
  GITHUB_SHA: commit,
  GITHUB_REF: `refs/heads/${branch}`,
  GITHUB_REF_NAME: branch,
  GITHUB_REF_TYPE: 'branch',
});

/** A push of `branch` to `commit` (`before` the head it had; none for a new branch). */
function onPush(branch: string, commit: string, before?: string): Trigger {
  const payload = pushEvent({ repository: REPOSITORY, branch, after: commit, before });
  return {
    env: { ...branchEnv(branch, commit), GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: eventFile(payload) },
    ref: `refs/heads/${branch}`,
    run: { event: 'push', headSha: commit, headBranch: branch },
  };
}

/** The nightly run of main, at `commit`. */
function onSchedule(commit: string): Trigger {
  const payload = scheduleEvent({ workflow: WORKFLOW });
  return {
    env: {
      ...branchEnv('main', commit),
      GITHUB_EVENT_NAME: 'schedule',
      GITHUB_EVENT_PATH: eventFile(payload),
    },
    ref: 'refs/heads/main',
    run: { event: 'schedule', headSha: commit, headBranch: 'main' },
  };
}

/** Pull request #7's `pull_request` run at `head` (GITHUB_SHA is GitHub's temporary merge commit). */
function onPullRequest(head: string, baseSha: string): Trigger {
  const payload = { ...SAMPLE_PULL_REQUEST, headSha: head, baseSha, action: 'synchronize' };
  return {
    env: {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_SHA: sha(`ee${head.slice(0, 4)}`),
      GITHUB_REF: `refs/pull/${number}/merge`,
      GITHUB_REF_NAME: `${number}/merge`,
      GITHUB_REF_TYPE: 'branch',
      GITHUB_HEAD_REF: FEATURE,
      GITHUB_BASE_REF: 'main',
      GITHUB_EVENT_PATH: pullRequestEventFile(payload),
    },
    ref: `refs/pull/${number}/merge`,
    run: { event: 'pull_request', headSha: head, headBranch: FEATURE },
  };
}

/** The merge queue's run of pull request #7 (head `pullRequestHead`), merged as `head` onto main at `baseSha`. */
function onMergeGroup(head: string, baseSha: string, pullRequestHead: string): Trigger {
  const queue = { baseBranch: 'main', pullRequest: number, pullRequestHead };
  const payload = mergeGroupEvent({ repository: REPOSITORY, headSha: head, baseSha, ...queue });
  const branch = mergeQueueBranch(queue);
  return {
    env: {
      ...branchEnv(branch, head),
      GITHUB_EVENT_NAME: 'merge_group',
      GITHUB_EVENT_PATH: eventFile(payload),
    },
    ref: `refs/heads/${branch}`,
    run: { event: 'merge_group', headSha: head, headBranch: branch },
  };
}

interface StepOptions {
  inputs?: Record<string, string>;
  /** The service's statuses of the run, one per poll (the last repeats); default FAILED when a test case did not pass, else PASSED. */
  statuses?: string[];
  /** "Re-run jobs" of this earlier workflow run: the same run id, the next attempt. */
  rerun?: SimWorkflowRun;
  /** Called once the remote run is being polled; with `cancel`, just before the runner cancels the job. */
  whileRunning?: () => void;
  /** The runner cancels the job while the run runs: SIGINT to the main step, then the post step (post-if: cancelled()). */
  cancel?: boolean;
}

type Step = DistResult & { run: SimWorkflowRun };

/** One step of the workflow on `trigger`, against a service whose run reports `testCases`. */
async function step(trigger: Trigger, testCases: SimTestCase[], options: StepOptions = {}): Promise<Step> {
  const run = options.rerun ?? {
    owner,
    repo,
    workflow: WORKFLOW,
    id: FIRST_WORKFLOW_RUN_ID + workflowRuns.length,
    ...trigger.run,
  };
  if (options.rerun) run.runAttempt = (run.runAttempt ?? 1) + 1;
  else workflowRuns.push(run);
  Object.assign(run, { status: 'in_progress', conclusion: null });
  sync();
  const final = testCases.some(({ status }) => status !== 'PASSED') ? 'FAILED' : 'PASSED';
  const sim = await Simulator.start({
    project: { statuses: options.statuses ?? [final], testCases },
  });
  try {
    const inputs = projectInputs(sim, {
      'github-token': DEFAULT_TOKEN,
      'fail-on': 'new',
      'pr-comment': 'always',
      'poll-interval': '100ms',
      ...options.inputs,
    });
    const env = {
      ...trigger.env,
      GITHUB_API_URL: gh.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_RUN_ID: String(run.id),
      GITHUB_RUN_ATTEMPT: String(run.runAttempt ?? 1),
      GITHUB_WORKFLOW_REF: `${REPOSITORY}/.github/workflows/${WORKFLOW}@${trigger.ref}`,
    };
    const { whileRunning, cancel } = options;
    const result = await runDist(inputs, {
      node: node.bin,
      env,
      onSpawn: (child) => {
        if (!whileRunning && !cancel) return;
        void sim.waitForRequests('getProjectRun', 2).then(() => {
          whileRunning?.();
          if (cancel) child.kill('SIGINT');
        });
      },
    });
    if (cancel) await runDist(inputs, { node: node.bin, env: { ...env, ...postStepEnv(result.state) } });
    const conclusion = cancel ? 'cancelled' : result.code === 0 ? 'success' : 'failure';
    Object.assign(run, { status: 'completed', conclusion });
    sync();
    return { ...result, run };
  } finally {
    await sim.stop();
  }
}

/** What gates: whether the step passed, and how many failures it calls new. */
const gate = ({ outputs }: DistResult) => ({
  success: outputs.success,
  'new-failures': outputs['new-failures'],
});
/** The distinct conclusions of the check runs on `commit`: one where every run that wrote one agrees. */
const conclusions = (commit: string) => [
  ...new Set(gh.checkRuns(owner, repo, commit).map(({ conclusion }) => conclusion)),
];
const checksOn = (commit: string) =>
  gh.checkRuns(owner, repo, commit).map(({ name, status, conclusion, output }) => ({
    name,
    status,
    conclusion,
    title: output.title,
  }));

describe(`the gate without holes (round 7), dist/index.js on ${node.name}`, () => {
  test('1. main never tested: the failure of the first push stays new on the next push and on a re-run of it', async () => {
    const [M0] = chain(['a0']) as [string];
    setBranch('main', M0);
    const [P1, P2] = chain(['c1', 'c2'], M0) as [string, string];
    openPullRequest(P1);
    const first = await step(onPullRequest(P1, M0), failing('X'));
    openPullRequest(P2);
    const second = await step(onPullRequest(P2, M0), failing('X'));
    const rerun = await step(onPullRequest(P2, M0), failing('X'), { rerun: second.run });
    expect({
      first: gate(first),
      second: gate(second),
      rerun: gate(rerun),
      checks: { P1: conclusions(P1), P2: conclusions(P2) },
    }).toEqual({
      // nothing to compare with: every failure counts, and new-failures stays empty (the outputs table)
      first: { success: 'false', 'new-failures': '' },
      second: { success: 'false', 'new-failures': '' },
      rerun: { success: 'false', 'new-failures': '' },
      checks: { P1: ['failure'], P2: ['failure'] },
    });
  });

  describe('2. a shared check-name: staging on main, a preview on the pull request', () => {
    const onMain = { 'check-name': 'E2E', environment: 'staging' };
    const onPreview = { 'check-name': 'E2E', environment: 'preview' };

    test("main's failure is known to the preview's run; a new failure beside it fails it", async () => {
      const [M1] = chain(['a1']) as [string];
      setBranch('main', M1);
      const main = await step(onPush('main', M1), failing('X'), { inputs: onMain });
      expect(main.outputs.status).toBe('FAILED');
      const [P1, P2] = chain(['c1', 'c2'], M1) as [string, string];
      openPullRequest(P1);
      const known = await step(onPullRequest(P1, M1), failing('X'), { inputs: onPreview });
      openPullRequest(P2);
      const both = await step(onPullRequest(P2, M1), failing('X', 'Y'), { inputs: onPreview });
      expect({
        known: gate(known),
        both: gate(both),
        checks: { P1: conclusions(P1), P2: conclusions(P2) },
      }).toEqual({
        known: { success: 'true', 'new-failures': '0' },
        both: { success: 'false', 'new-failures': '1' },
        checks: { P1: ['success'], P2: ['failure'] },
      });
    });

    // 7. The headings follow the judgment: a run that passes with known failures shows no ❌.
    test.each([
      {
        setup: 'a shared check-name (staging on main, preview on the pull request)',
        main: onMain,
        pr: onPreview,
      },
      { setup: 'the same target on both', main: {}, pr: {} },
    ])(
      '7. headings: with $setup, a pull request that passes with known failures says so with no ❌',
      async ({ main: mainInputs, pr: prInputs }) => {
        const [M1] = chain(['a1']) as [string];
        setBranch('main', M1);
        await step(onPush('main', M1), failing('X'), { inputs: mainInputs });
        const [P1] = chain(['c1'], M1) as [string];
        openPullRequest(P1);
        const known = await step(onPullRequest(P1, M1), failing('X'), { inputs: prInputs });
        const comments = gh.comments(owner, repo, number);
        const [check] = checksOn(P1);
        const failedHeadings = (text: string) =>
          visibleLines(text).filter((line) => line.includes('❌ Test run failed'));
        expect({
          success: known.outputs.success,
          comments: comments.length,
          heading: visibleLines(comments[0]?.body ?? '')[0],
          'comment says failed': failedHeadings(comments[0]?.body ?? ''),
          'summary says failed': failedHeadings(known.summary),
          check: check?.conclusion,
          title: check?.title,
        }).toEqual({
          success: 'true',
          comments: 1,
          heading: expect.not.stringContaining('❌ Test run failed'),
          'comment says failed': [],
          'summary says failed': [],
          check: 'success',
          title: expect.not.stringContaining('❌ Test run failed'),
        });
      },
    );
  });

  // 3. on: [push, pull_request]: a push of feature-7, the head of open pull request #7, is its run.
  test.each([
    { last: 'the push', order: ['pull_request', 'push'] },
    { last: "the pull request's run", order: ['push', 'pull_request'] },
  ])(
    "3. a push of the pull request's branch is judged against main, the second push too; the head's check agrees when $last ends last",
    async ({ order }) => {
      const [M1] = chain(['a1']) as [string];
      setBranch('main', M1);
      const main = await step(onPush('main', M1), passing('X'));
      expect(main.outputs.success).toBe('true');
      const [F1, F2] = chain(['f1', 'f2'], M1) as [string, string];
      openPullRequest(F1);
      const firstPush = await step(onPush(FEATURE, F1), failing('X'));
      openPullRequest(F2);
      const runs: Record<string, Step> = {};
      for (const event of order) {
        runs[event] =
          event === 'push'
            ? await step(onPush(FEATURE, F2, F1), failing('X'))
            : await step(onPullRequest(F2, M1), failing('X'));
      }
      expect({
        firstPush: gate(firstPush),
        secondPush: gate(runs.push as Step),
        pullRequest: gate(runs.pull_request as Step),
        checks: { F2: conclusions(F2) },
      }).toEqual({
        firstPush: { success: 'false', 'new-failures': '1' },
        secondPush: { success: 'false', 'new-failures': '1' },
        pullRequest: { success: 'false', 'new-failures': '1' },
        checks: { F2: ['failure'] },
      });
    },
  );

  test("4. earlier results however far back: main tested nightly; a pull request branched at M15 knows M10's failure, a merge group on M77 knows M70's", async () => {
    // main M0..M77, its nightly runs at M0, M10, ... M70: X failed at M10, Y at M70.
    const MAIN = chain(Array.from({ length: 78 }, (_, i) => `a${String(i).padStart(2, '0')}`));
    const at = (i: number) => MAIN[i] as string;
    for (let i = 0; i <= 70; i += 10) {
      setBranch('main', at(i));
      const failed = i === 10 ? ['X'] : i === 70 ? ['Y'] : [];
      const others = ['X', 'Y'].filter((title) => !failed.includes(title));
      await step(onSchedule(at(i)), [...failing(...failed), ...passing(...others)]);
    }
    setBranch('main', at(77));
    // Pull request #7 branched at M15, which has no run; the 5 newest commits with runs are M30..M70.
    const [Q1] = chain(['c1'], at(15)) as [string];
    openPullRequest(Q1);
    const pr = await step(onPullRequest(Q1, at(77)), [...failing('X'), ...passing('Y')]);
    // The merge queue tests #7 merged onto M77, on its temporary branch.
    const [G] = chain(['e1']) as [string];
    commits.set(G, [at(77), Q1]);
    sync();
    const queued = await step(onMergeGroup(G, at(77), Q1), [...passing('X'), ...failing('Y')]);
    expect({
      pr: gate(pr),
      queued: gate(queued),
      checks: { Q1: conclusions(Q1), G: conclusions(G) },
    }).toEqual({
      pr: { success: 'true', 'new-failures': '0' },
      queued: { success: 'true', 'new-failures': '0' },
      checks: { Q1: ['success'], G: ['success'] },
    });
  });

  test('5. a run of main that was INTERRUPTED records no failure of the test it never ran', async () => {
    const [M1, M2] = chain(['a1', 'a2']) as [string, string];
    setBranch('main', M1);
    await step(onPush('main', M1), passing('X', 'Y'));
    setBranch('main', M2);
    const interrupted = await step(
      onPush('main', M2, M1),
      [...passing('X'), { title: 'Y', status: 'INTERRUPTED' }],
      {
        statuses: ['RUNNING', 'INTERRUPTED'],
      },
    );
    expect(interrupted.outputs.status).toBe('INTERRUPTED');
    const [P1] = chain(['c1'], M2) as [string];
    openPullRequest(P1);
    const pr = await step(onPullRequest(P1, M2), [...passing('X'), ...failing('Y')]);
    expect({ pr: gate(pr), checks: conclusions(P1) }).toEqual({
      pr: { success: 'false', 'new-failures': '1' },
      checks: ['failure'],
    });
  });

  test.each<{ how: string; cancel: boolean; inputs: Record<string, string> }>([
    { how: 'cancelled (SIGINT, then the post step)', cancel: true, inputs: {} },
    { how: 'timed out', cancel: false, inputs: { timeout: '1s' } },
  ])(
    "6. a re-run of main's commit that is $how leaves the first attempt's result",
    async ({ cancel, inputs }) => {
      const [M0, M1] = chain(['a0', 'a1']) as [string, string];
      setBranch('main', M0);
      await step(onPush('main', M0), passing('X'));
      setBranch('main', M1);
      const first = await step(onPush('main', M1, M0), failing('X'));
      const result = checksOn(M1);
      expect(result).toMatchObject([{ status: 'completed', conclusion: 'failure' }]);
      let during: unknown;
      await step(onPush('main', M1, M0), failing('X'), {
        rerun: first.run,
        statuses: ['RUNNING'],
        inputs,
        cancel,
        whileRunning: () => {
          during = checksOn(M1);
        },
      });
      const after = checksOn(M1);
      const [P1] = chain(['c1'], M1) as [string];
      openPullRequest(P1);
      const pr = await step(onPullRequest(P1, M1), failing('X'));
      expect({ during, after, pr: gate(pr) }).toEqual({
        during: result,
        after: result,
        pr: { success: 'true', 'new-failures': '0' },
      });
    },
  );
});
