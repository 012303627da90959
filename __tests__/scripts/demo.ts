/**
 * `npm start`: runs the bundled action (dist/index.js) against the service simulator the way the
 * GitHub runner does, scenario by scenario, prints what a user would see, and ends with a recap:
 * one line per scenario, its outcome and whether that was the expected one. Two scenarios fail on
 * purpose (failing tests are what the action reports). `npm start -- <scenario> ...` runs only
 * those; an unknown name lists them. Exits non-zero when a scenario did not end as expected.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runDist } from '../helpers/dist-runner.js';
import { renderSummary } from '../helpers/render-summary.js';
import { StandInCloudflared } from '../simulator/cloudflared-stand-in.js';
import { DEFAULT_TOKEN, GitHubSimulator, SAMPLE_PULL_REQUEST } from '../simulator/github.js';
import { LocalApp } from '../simulator/local-app.js';
import { ConnectProxy } from '../simulator/proxy.js';
import { DEFAULT_API_KEY, type ProjectScript, type Scenario, Simulator } from '../simulator/simulator.js';
import { CA_CERT_PATH } from '../simulator/tls-front.js';
import { historyStory, previewStory, pullRequestStory, STORY_INPUTS } from './pull-request-story.js';

const passing: ProjectScript = {
  statuses: ['QUEUED', 'RUNNING', 'RUNNING', 'PASSED'],
  testCases: [
    { title: 'Sign-in with email and password', status: 'PASSED', durationMs: 4210 },
    { title: 'Add two items to the cart', status: 'PASSED', durationMs: 6120 },
    { title: 'Search suggests products', status: 'FLAKY', durationMs: 2950 },
    { title: 'Checkout with a saved card', status: 'PASSED', durationMs: 9870 },
    { title: 'Export order history (beta)', status: 'SKIPPED' },
  ],
};

const failing: ProjectScript = {
  statuses: ['QUEUED', 'RUNNING', 'FAILED'],
  testCases: [
    { title: 'Sign-in with email and password', status: 'PASSED', durationMs: 3980 },
    { title: 'Checkout applies the <b>WELCOME10</b> | discount', status: 'FAILED', durationMs: 12_400 },
    { title: 'Payment page loads', status: 'TIMEDOUT', durationMs: 60_000 },
    { title: 'Order confirmation e-mail', status: 'FAILED', durationMs: 5300 },
  ],
};

const suite: Scenario['suite'] = {
  statuses: ['RUNNING', 'RUNNING', 'FINISHED'],
  testSuiteName: 'Checkout regression',
  projectId: 'shop-web',
  testCases: [
    { title: 'Pay with a saved card', status: 'PASSED' },
    { title: 'Pay with a voucher', status: 'PASSED' },
    { title: 'Pay with a gift card', status: 'FLAKY' },
    { title: 'Pay by bank transfer', status: 'SKIPPED' },
  ],
};

/** Three suites of one step, the second failing. */
const threeSuites: Scenario['suites'] = {
  'checkout-regression': suite,
  'search-smoke': {
    statuses: ['RUNNING', 'FINISHED'],
    testSuiteName: 'Search smoke',
    testCases: [
      { title: 'Search suggests products', status: 'FAILED', durationMs: 2100 },
      { title: 'Filters narrow the results', status: 'PASSED', durationMs: 1800 },
    ],
  },
  'account-settings': {
    statuses: ['RUNNING', 'RUNNING', 'RUNNING', 'FINISHED'],
    testSuiteName: 'Account settings',
    testCases: [{ title: 'Change the e-mail address', status: 'PASSED', durationMs: 3300 }],
  },
};

/** The suite's options as a workflow would write them: YAML, checked before anything is sent. */
const suiteOptions = `numberOfWorkers: 4
retries: 1
testMatch:
  glob: "checkout/**"
variableOverrides:
  BASE_URL: https://staging.example.com
  ADMIN_PASSWORD:
    value: demo-only-password
    sensitive: true
urlReplacements:
  - original: https://www.example.com
    replacement: https://staging.example.com
`;

function banner(text: string): void {
  const line = '='.repeat(78);
  console.log(`\n${line}\n${text}\n${line}`);
}

/**
 * The log as the runner shows it without debug logging: `::debug::` lines and `::add-mask::`
 * commands are not shown, and a group (where cloudflared's own lines go) is shown folded, as its
 * title, so the demo does the same.
 */
function shownLog(log: string): string {
  const shown: string[] = [];
  let hidden = 0;
  let inGroup = false;
  for (const line of log.split('\n')) {
    if (line.startsWith('::group::')) {
      shown.push(`> ${line.slice('::group::'.length)}`);
      inGroup = true;
    } else if (line.startsWith('::endgroup::')) inGroup = false;
    else if (inGroup || line.startsWith('::debug::') || line.startsWith('::add-mask::')) hidden++;
    else shown.push(line);
  }
  const text = shown.join('\n');
  return hidden === 0
    ? text
    : `${text.trimEnd()}\n(${hidden} ${hidden === 1 ? 'line' : 'lines'} left out: debug lines, masks and folded groups, as the runner shows them)\n`;
}

/** Runs dist/index.js once against a simulator and prints the log, the outputs and the summary. Whether the step passed. */
async function runStep(
  title: string,
  scenario: Scenario,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<boolean> {
  const sim = await Simulator.start(scenario);
  // A push to main, as the runner describes it, with GitHub played by its simulator: the check run.
  const gh = await GitHubSimulator.start();
  const push = {
    GITHUB_API_URL: gh.url,
    GITHUB_REPOSITORY: `${SAMPLE_PULL_REQUEST.owner}/${SAMPLE_PULL_REQUEST.repo}`,
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SHA: DEMO_COMMIT,
    GITHUB_REF_NAME: 'main',
    GITHUB_REF_TYPE: 'branch',
  };
  try {
    banner(`${title}: node dist/index.js, as the runner runs it, against the simulator at ${sim.url}`);
    for (const [name, value] of Object.entries(inputs)) {
      console.log(
        value.includes('\n') ? `${name}: |\n${value.replace(/^/gm, '  ').trimEnd()}` : `${name}: ${value}`,
      );
    }
    const result = await runDist(
      {
        'api-key': DEFAULT_API_KEY,
        'base-url': sim.url,
        'poll-interval': '300ms',
        'github-token': DEFAULT_TOKEN,
        ...inputs,
      },
      { env: { ...push, ...env } },
    );
    console.log('--- log ---');
    process.stdout.write(shownLog(result.stdout));
    if (result.stderr) process.stdout.write(result.stderr);
    console.log(`--- exit code: ${result.code} (${result.code === 0 ? 'step passed' : 'step failed'}) ---`);
    console.log('--- outputs ---');
    for (const [name, value] of Object.entries(result.outputs)) console.log(`${name}=${value}`);
    const start = sim.requests.find((request) => request.operation === 'startSuiteRun');
    if (start) {
      console.log('--- the start request the service received (the sensitive value shown as *** here) ---');
      console.log(JSON.stringify(start.body, null, 2).replaceAll('demo-only-password', '***'));
    }
    for (const run of gh.checkRuns(
      push.GITHUB_REPOSITORY.split('/')[0] ?? '',
      SAMPLE_PULL_REQUEST.repo,
      DEMO_COMMIT,
    )) {
      console.log(
        `--- the check run on ${DEMO_COMMIT.slice(0, 7)}: ${run.name}, ${run.conclusion}: ${run.output.title} ---`,
      );
    }
    console.log('--- job summary ---');
    console.log(renderSummary(result.summary));
    return result.code === 0;
  } finally {
    await sim.stop();
    await gh.stop();
  }
}

const project = { 'project-id': 'shop-web', environment: 'staging' };
/** The pushed commit the single-run scenarios test. */
const DEMO_COMMIT = 'd3e0'.padEnd(40, '0');

interface DemoScenario {
  name: string;
  what: string;
  /** Whether the step passes; a failing one fails on purpose, and `why` says how. */
  passes: boolean;
  why?: string;
  /** Whether the step passed. */
  run: () => Promise<boolean>;
}

const SCENARIOS: DemoScenario[] = [
  {
    name: 'passing',
    what: 'a project run that passes, with a flaky and a skipped test case',
    passes: true,
    run: () => runStep('A passing project run', { project: passing }, project),
  },
  {
    name: 'failing',
    what: 'a project run with three failing test cases: the messages, annotations and summary',
    passes: false,
    why: 'three test cases fail',
    run: () => runStep('A failing project run', { project: failing }, project),
  },
  {
    name: 'suite',
    what: 'a test suite run with YAML options, a sensitive override masked',
    passes: true,
    run: () =>
      runStep(
        'A test suite run with YAML options',
        { suite },
        { 'test-suite-id': 'checkout-regression', environment: 'STAGING', options: suiteOptions },
      ),
  },
  {
    name: 'several',
    what: 'three suites from one step, started together: one summary, the worst status, a runs output',
    passes: false,
    why: 'one of the three suites has a failing test case',
    run: () =>
      runStep(
        'Three test suites in one step',
        { suites: threeSuites },
        { 'test-suite-id': 'checkout-regression\nsearch-smoke\naccount-settings' },
      ),
  },
  {
    name: 'tunnel',
    what: "a suite run of the job's own app on localhost, through a tunnel (a stand-in cloudflared)",
    passes: true,
    run: tunnelScenario,
  },
  {
    name: 'pull-request',
    what: "two pushes on a pull request: the comment after the second (the README's picture)",
    passes: false,
    why: 'the second push breaks a test case',
    run: pullRequestScenario,
  },
  {
    name: 'history',
    what: "main's four pushes (one flakes), then a pull request: a flake passes fail-on: new, a regression fails it, a slowdown and an expired quarantine entry show, and main's results as charts",
    passes: false,
    why: "the pull request's second push breaks checkout",
    run: historyScenario,
  },
  {
    name: 'preview',
    what: "the same two pushes as preview deployments of a fork's pull request (deployment_status)",
    passes: false,
    why: 'the second push breaks a test case',
    run: previewScenario,
  },
];

// The job starts its app on localhost; the service, in the cloud, reaches it through a tunnel.
async function tunnelScenario(): Promise<boolean> {
  const app = await LocalApp.start();
  const standIn = await StandInCloudflared.create('ok');
  const internet = await ConnectProxy.start({ routes: {}, resolve: standIn.resolve });
  try {
    return await runStep(
      "A test suite run of the job's own app, through a tunnel (the stand-in cloudflared)",
      {
        suite: { ...suite, testCases: undefined },
        app: { proxy: internet.url, ca: readFileSync(CA_CERT_PATH) },
      },
      {
        'test-suite-id': 'checkout-regression',
        tunnel: app.origin,
        options: `urlReplacements:\n  - original: https://www.example.com\n    replacement: ${app.origin}/checkout\n`,
      },
      {
        ...standIn.env({}),
        PATH: [standIn.binDir, process.env.PATH ?? ''].join(path.delimiter),
        NODE_EXTRA_CA_CERTS: CA_CERT_PATH,
        https_proxy: internet.url,
      },
    );
  } finally {
    await internet.stop();
    await app.stop();
    await standIn.cleanup();
  }
}

// A pull request, two pushes: the comment says what changed since the first one.
async function pullRequestScenario(): Promise<boolean> {
  banner('Two pushes on a pull request (and the GitHub simulator): the comment after the second');
  const story = await pullRequestStory();
  console.log(
    Object.entries(STORY_INPUTS)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
  );
  console.log('--- the pull request comment (Markdown; its hidden lines name the step and the commit) ---');
  console.log(story.comment);
  console.log('--- outputs ---');
  for (const name of ['status', 'success', 'new-failures', 'fixed', 'comment-url']) {
    console.log(`${name}=${story.outputs[name] ?? ''}`);
  }
  return story.outputs.success === 'true';
}

// A flake is not a regression: main's history labels the pull request's failures.
async function historyScenario(): Promise<boolean> {
  banner(
    "main's four pushes, one of which fails the search test by chance; then a pull request's two pushes",
  );
  const story = await historyStory();
  for (const [i, comment] of story.comments.entries()) {
    console.log(`--- the pull request comment after its push ${i + 1} (fail-on: new) ---`);
    console.log(comment);
    console.log('--- outputs ---');
    for (const name of ['status', 'success', 'new-failures', 'flaky-failures', 'quarantined', 'slower']) {
      console.log(`${name}=${story.outputs[i]?.[name] ?? ''}`);
    }
  }
  console.log('--- the quarantine, in the log of the second push ---');
  console.log(
    story.log
      .split('\n')
      .filter((line) => line.includes('quarantine:'))
      .join('\n'),
  );
  console.log('--- main at a glance, in the job summary of the second push (Mermaid) ---');
  console.log(story.summary.slice(story.summary.indexOf('```mermaid'), story.summary.lastIndexOf('```') + 3));
  return story.outputs.at(-1)?.success === 'true';
}

// The same two pushes, tested on their preview deployments (deployment_status) of a fork's pull request.
async function previewScenario(): Promise<boolean> {
  banner(
    "Two preview deployments of a fork's pull request (deployment_status): the comment after the second",
  );
  const preview = await previewStory();
  console.log('--- the log lines about the pull request and the comparison ---');
  console.log(
    preview.log
      .split('\n')
      .filter((line) => !line.startsWith('::') && /pull request|commit|compar/i.test(line))
      .join('\n'),
  );
  console.log('--- the pull request comment on #9 ---');
  console.log(preview.comment);
  console.log('--- outputs ---');
  for (const name of ['status', 'success', 'new-failures', 'fixed', 'comment-url']) {
    console.log(`${name}=${preview.outputs[name] ?? ''}`);
  }
  return preview.outputs.success === 'true';
}

function listScenarios(): string {
  const width = Math.max(...SCENARIOS.map((scenario) => scenario.name.length));
  return SCENARIOS.map(
    (scenario) =>
      `  ${scenario.name.padEnd(width)}  ${scenario.what}${scenario.passes ? '' : ` (fails on purpose: ${scenario.why})`}`,
  ).join('\n');
}

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
if (asked[0] === '--json') {
  // For the test that holds the README's table of scenarios equal to this list.
  console.log(JSON.stringify(SCENARIOS.map(({ name, passes }) => ({ name, passes }))));
} else if (unknown.length > 0) {
  console.log(
    `Unknown scenario ${unknown.map((name) => `'${name}'`).join(', ')}. The scenarios:\n${listScenarios()}`,
  );
  console.log('Run one with: npm start -- <scenario>');
  process.exitCode = 2;
} else {
  const chosen =
    asked.length === 0 ? SCENARIOS : SCENARIOS.filter((scenario) => asked.includes(scenario.name));
  const recap: string[] = [];
  let unexpected = 0;
  for (const scenario of chosen) {
    let outcome: string;
    let expected: boolean;
    try {
      const passed = await scenario.run();
      outcome = passed ? 'step passed' : 'step failed';
      expected = passed === scenario.passes;
    } catch (error) {
      console.log(
        `--- the scenario broke: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      outcome = 'broke';
      expected = false;
    }
    if (!expected) unexpected++;
    const verdict = !expected
      ? `NOT EXPECTED (it should have ${scenario.passes ? 'passed' : 'failed'})`
      : scenario.passes
        ? 'as expected'
        : `as expected: fails on purpose (${scenario.why})`;
    recap.push(`${scenario.name.padEnd(14)} ${outcome.padEnd(12)} ${verdict}`);
  }
  banner('Recap: what ran');
  console.log(recap.join('\n'));
  console.log(
    unexpected === 0
      ? '\nEvery scenario ended as expected. Run one of them alone with: npm start -- <scenario>'
      : `\n${unexpected} scenario(s) did not end as expected.`,
  );
  if (unexpected > 0) process.exitCode = 1;
}
