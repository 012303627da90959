/**
 * Two pushes on a pull request, the action's dist/index.js run for each as the runner runs it,
 * against the service simulator and the GitHub simulator: the first push fails two test cases, the
 * second fixes one, still fails the other, and breaks a third. What it leaves is what the README's
 * pictures show (`npm run screenshots`) and what `npm start` prints last.
 */
import { runDist } from '../helpers/dist-runner.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { deploymentStatusEvent, eventFile } from '../simulator/github-events.js';
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
  const gh = await GitHubSimulator.start();
  try {
    let last: Awaited<ReturnType<typeof runDist>> | undefined;
    for (const [push, testCases] of [firstPush, secondPush].entries()) {
      const headSha = String(push + 1)
        .repeat(7)
        .padEnd(40, 'a');
      last = await runPush(gh, testCases, headSha, push + 1);
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
) {
  const sim = await Simulator.start({
    runIds: [`run-${runNumber}`],
    project: { statuses: ['RUNNING', 'FAILED'], testCases, runMs: 184_000 },
  });
  try {
    const inputs = {
      'api-key': DEFAULT_API_KEY,
      'base-url': sim.url,
      'poll-interval': '50ms',
      'github-token': DEFAULT_TOKEN,
    };
    return await runDist({ ...inputs, ...STORY_INPUTS }, { env: { GITHUB_API_URL: gh.url, ...env } });
  } finally {
    await sim.stop();
  }
}

function runPush(gh: GitHubSimulator, testCases: SimTestCase[], headSha: string, runNumber: number) {
  gh.setScenario({ pulls: [{ ...PR, headSha }] });
  return runStep(gh, testCases, runNumber, {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: pullRequestEventFile({ ...PR, headSha }),
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
