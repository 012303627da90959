/**
 * main's push, then two pushes on a pull request, the action's dist/index.js run for each as the
 * runner runs it, against the service simulator and the GitHub simulator: main times out on the
 * payment page; the pull request's first push fails two test cases, the second fixes one, still
 * fails the other (as main does), and breaks a third. What it leaves is what the README's
 * pictures show (`npm run screenshots`) and what `npm start` prints last.
 */
import { runDist } from '../helpers/dist-runner.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { deploymentStatusEvent, eventFile, pushToMainEnv } from '../simulator/github-events.js';
import { DEFAULT_API_KEY, type SimTestCase, Simulator } from '../simulator/simulator.js';

const PR = SAMPLE_PULL_REQUEST;

const firstPush: SimTestCase[] = [
  { title: 'Sign-in with email and password', status: 'PASSED', durationMs: 4210 },
  { title: 'Checkout with a saved card', status: 'FAILED', durationMs: 9870 },
  { title: 'Payment page loads', status: 'TIMEDOUT', durationMs: 60_000 },
  { title: 'Search suggests products', status: 'PASSED', durationMs: 2950 },
  { title: 'Order history lists the last order', status: 'PASSED', durationMs: 5120 },
  { title: 'Export order history (beta)', status: 'SKIPPED' },
];

const secondPush: SimTestCase[] = [
  { title: 'Sign-in with email and password', status: 'PASSED', durationMs: 4020 },
  { title: 'Checkout with a saved card', status: 'PASSED', durationMs: 9410 },
  { title: 'Payment page loads', status: 'TIMEDOUT', durationMs: 60_000 },
  { title: 'Search suggests products', status: 'FLAKY', durationMs: 3310 },
  { title: 'Order history lists the last order', status: 'FAILED', durationMs: 5480 },
  { title: 'Export order history (beta)', status: 'SKIPPED' },
];

/** The inputs of the story's step, as a workflow would give them. */
export const STORY_INPUTS = {
  'project-id': 'shop-web',
  environment: 'staging',
  'pr-comment': 'always',
  'dashboard-url': 'https://app.tests.example.com/projects/{projectId}/runs/{runId}',
};

export interface Story {
  /** The pull request comment after the second push. */
  comment: string;
  /** The job summary of the second push. */
  summary: string;
  /** The second push's log and outputs. */
  log: string;
  outputs: Record<string, string>;
}

export async function pullRequestStory(): Promise<Story> {
  // main's head, tested on its push, and the pull request's two pushes on top of it
  const main = 'ba5e'.padEnd(40, '0');
  const heads = ['1', '2'].map((digit) => digit.repeat(7).padEnd(40, 'a'));
  const repository = { owner: PR.owner, repo: PR.repo };
  const graph = {
    commits: [
      { ...repository, sha: main, parents: [] },
      ...heads.map((sha, i) => ({ ...repository, sha, parents: [i === 0 ? main : (heads[0] as string)] })),
    ],
    branches: [{ ...repository, name: 'main', sha: main }],
  };
  const gh = await GitHubSimulator.start(graph);
  try {
    await runStep(gh, mainPushes[3] as SimTestCase[], 0, {
      ...pushToMainEnv(gh.url, main),
      GITHUB_RUN_ID: '7700',
    });
    let last: Awaited<ReturnType<typeof runDist>> | undefined;
    for (const [push, testCases] of [firstPush, secondPush].entries()) {
      gh.setScenario({ ...graph, pulls: [{ ...PR, headSha: heads[push] as string, baseRef: 'main' }] });
      last = await runPush(gh, testCases, heads[push] as string, push + 1);
    }
    const [comment] = gh.comments(PR.owner, PR.repo, PR.number);
    if (!comment?.body || !last) throw new Error('the story left no comment');
    return { comment: comment.body, summary: last.summary, log: last.stdout, outputs: last.outputs };
  } finally {
    await gh.stop();
  }
}

/** One run of the story's project through dist/, with the event's variables in `env`. */
async function runStep(
  gh: GitHubSimulator,
  testCases: SimTestCase[],
  runNumber: number,
  env: Record<string, string>,
  extra: Record<string, string> = {},
  runMs = 184_000,
) {
  const sim = await Simulator.start({
    runIds: [`run-${runNumber}`],
    project: {
      statuses: [
        'RUNNING',
        testCases.some(({ status }) => status === 'FAILED' || status === 'TIMEDOUT') ? 'FAILED' : 'PASSED',
      ],
      testCases,
      runMs,
    },
  });
  try {
    const inputs = {
      'api-key': DEFAULT_API_KEY,
      'base-url': sim.url,
      'poll-interval': '50ms',
      'github-token': DEFAULT_TOKEN,
    };
    return await runDist(
      { ...inputs, ...STORY_INPUTS, ...extra },
      { env: { GITHUB_API_URL: gh.url, ...env } },
    );
  } finally {
    await sim.stop();
  }
}

function runPush(gh: GitHubSimulator, testCases: SimTestCase[], headSha: string, runNumber: number) {
  return runStep(gh, testCases, runNumber, {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: pullRequestEventFile({ ...PR, headSha, baseSha: 'ba5e'.padEnd(40, '0') }),
    GITHUB_HEAD_REF: PR.headRef,
    GITHUB_REF_NAME: `${PR.number}/merge`,
    GITHUB_RUN_ID: String(7_700 + runNumber),
  });
}

/**
 * Two preview deployments of a fork's pull request (`deployment_status`): GitHub's commit
 * association knows nothing of a fork's commit, so the action finds the pull request among the
 * open ones, and names the deployed commit. The same two pushes as above; the second's comment.
 */
export async function previewStory(): Promise<{
  comment: string;
  log: string;
  outputs: Record<string, string>;
}> {
  const gh = await GitHubSimulator.start();
  try {
    let last: Awaited<ReturnType<typeof runPreview>> | undefined;
    // The fork's two commits on top of the base branch's head, which has no result to compare with.
    const main = 'ba5e'.padEnd(40, '0');
    const repository = { owner: PR.owner, repo: PR.repo };
    const commits = [{ ...repository, sha: main, parents: [] as string[] }];
    for (const [push, testCases] of [firstPush, secondPush].entries()) {
      const sha = `f0${push + 1}`.repeat(3).padEnd(40, 'c');
      commits.push({ ...repository, sha, parents: [commits.at(-1)?.sha ?? main] });
      gh.setScenario({
        branches: [{ ...repository, name: 'main', sha: main }],
        commits,
        pulls: [{ ...repository, number: 9, headSha: sha, headRef: 'patch-1', head: 'stranger/shop' }],
      });
      last = await runPreview(gh, testCases, sha, push + 1);
    }
    const [comment] = gh.comments(PR.owner, PR.repo, 9);
    if (!comment?.body || !last) throw new Error(`the preview left no comment:\n${last?.stdout}`);
    return { comment: comment.body, log: last.stdout, outputs: last.outputs };
  } finally {
    await gh.stop();
  }
}

function runPreview(gh: GitHubSimulator, testCases: SimTestCase[], sha: string, runNumber: number) {
  const repository = `${PR.owner}/${PR.repo}`;
  return runStep(gh, testCases, runNumber, {
    GITHUB_EVENT_NAME: 'deployment_status',
    GITHUB_EVENT_PATH: eventFile(deploymentStatusEvent({ repository, sha, ref: 'patch-1' })),
    GITHUB_REPOSITORY: repository,
    GITHUB_REF_NAME: 'patch-1',
    GITHUB_RUN_ID: String(8_800 + runNumber),
  });
}

/** main's four pushes: 'Search suggests products' fails once by chance (the second); the payment page times out since the third. */
const mainPushes: SimTestCase[][] = [1, 2, 3, 4].map((push) =>
  firstPush.map((testCase) => {
    const flaked = testCase.title === 'Search suggests products' && push === 2;
    if (testCase.title === 'Payment page loads' && push >= 3) return testCase;
    const status = testCase.status === 'SKIPPED' ? 'SKIPPED' : flaked ? 'FAILED' : 'PASSED';
    // A few hundred milliseconds either way from one push to the next, as real runs vary.
    const durationMs = testCase.durationMs && testCase.durationMs + ((push * 137) % 400);
    return { ...testCase, status, durationMs };
  }),
);

/**
 * The story's quarantine: the export test, skipped anyway, quarantined for good; the sign-in test's
 * entry ended on a day past, so it protects nothing and one warning says so.
 */
const QUARANTINE = 'Export order history *\nSign-in * until 2026-01-31';

export interface HistoryStory {
  /** The pull request comment after each of its two pushes. */
  comments: string[];
  outputs: Record<string, string>[];
  /** The job summary and the log of the pull request's second push. */
  summary: string;
  log: string;
}

/**
 * A flake is not a regression: main's four pushes build the record in their check runs (one of
 * them fails the search test by chance; the payment page fails since the third). The pull
 * request's first push fails those two: flaky on main and failing on main, and `fail-on: new`
 * passes. Its second push fails them again, breaks checkout (a new failure, which fails the step)
 * and makes the order history three times slower than on main.
 */
export async function historyStory(): Promise<HistoryStory> {
  const repository = { owner: PR.owner, repo: PR.repo };
  const main = [1, 2, 3, 4].map((push) => `a${push}`.padEnd(40, '0'));
  const pushes = [1, 2].map((push) => `c${push}`.padEnd(40, '0'));
  const commits = [...main, ...pushes].map((sha, i, all) => ({
    ...repository,
    sha,
    parents: i === 0 ? [] : [all[i - 1] as string],
  }));
  const workflow = {
    GITHUB_WORKFLOW_REF: `${PR.owner}/${PR.repo}/.github/workflows/e2e.yml@refs/heads/main`,
  };
  const branches = [{ ...repository, name: 'main', sha: main[3] as string }];
  const gh = await GitHubSimulator.start({ commits, branches });
  const inputs = { 'fail-on': 'new', quarantine: QUARANTINE };
  const ranOn = (shas: string[]) =>
    shas.map((headSha) => ({
      ...repository,
      workflow: 'e2e.yml',
      headSha,
      headBranch: 'main',
      event: 'push',
    }));
  try {
    for (const [i, sha] of main.entries()) {
      gh.setScenario({ commits, branches, workflowRuns: ranOn(main.slice(0, i)) });
      const env = {
        ...workflow,
        ...pushToMainEnv(gh.url, sha),
        GITHUB_RUN_ID: String(7_720 + i),
      };
      await runStep(gh, mainPushes[i] ?? [], 20 + i, env, inputs, [184_000, 191_000, 236_000, 229_000][i]);
    }
    const story: HistoryStory = { comments: [], outputs: [], summary: '', log: '' };
    const failing = [
      ['Search suggests products', 'Payment page loads'],
      ['Search suggests products', 'Payment page loads', 'Checkout with a saved card'],
    ];
    for (const [i, headSha] of pushes.entries()) {
      gh.setScenario({
        commits,
        branches,
        workflowRuns: ranOn(main),
        pulls: [{ ...PR, headSha, baseRef: 'main' }],
      });
      const testCases = firstPush.map((testCase) => {
        const status = failing[i]?.includes(testCase.title)
          ? 'FAILED'
          : testCase.status === 'SKIPPED'
            ? 'SKIPPED'
            : 'PASSED';
        const slower = i === 1 && testCase.title === 'Order history lists the last order';
        return { ...testCase, status, durationMs: slower ? 17_350 : testCase.durationMs };
      });
      const result = await runStep(
        gh,
        testCases,
        30 + i,
        {
          ...workflow,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: pullRequestEventFile({ ...PR, headSha, baseSha: main[3] }),
          GITHUB_HEAD_REF: PR.headRef,
          GITHUB_RUN_ID: String(7_730 + i),
        },
        inputs,
        [240_000, 251_000][i],
      );
      story.comments.push(gh.comments(PR.owner, PR.repo, PR.number)[0]?.body ?? '');
      story.outputs.push(result.outputs);
      story.summary = result.summary;
      story.log = result.stdout;
    }
    return story;
  } finally {
    await gh.stop();
  }
}
