/**
 * `npm start`: runs the bundled action (dist/index.js) against the service simulator the way the
 * GitHub runner does, for a passing and a failing project run, a test suite run with YAML
 * options, and a suite run that tests an app this "job" started, through a tunnel (the stand-in
 * cloudflared, and a loopback proxy standing for the internet), two pushes on a pull request with
 * its comment, and prints what a user would see.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runDist } from '../helpers/dist-runner.js';
import { renderSummary } from '../helpers/render-summary.js';
import { StandInCloudflared } from '../simulator/cloudflared-stand-in.js';
import { LocalApp } from '../simulator/local-app.js';
import { ConnectProxy } from '../simulator/proxy.js';
import { DEFAULT_API_KEY, type ProjectScript, type Scenario, Simulator } from '../simulator/simulator.js';
import { CA_CERT_PATH } from '../simulator/tls-front.js';
import { previewStory, pullRequestStory, STORY_INPUTS } from './pull-request-story.js';

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

async function demo(
  title: string,
  scenario: Scenario,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<void> {
  const sim = await Simulator.start(scenario);
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
        ...inputs,
      },
      { env },
    );
    console.log('--- log ---');
    process.stdout.write(result.stdout);
    if (result.stderr) process.stdout.write(result.stderr);
    console.log(`--- exit code: ${result.code} (${result.code === 0 ? 'step passed' : 'step failed'}) ---`);
    console.log('--- outputs ---');
    for (const [name, value] of Object.entries(result.outputs)) console.log(`${name}=${value}`);
    const start = sim.requests.find((request) => request.operation === 'startSuiteRun');
    if (start) {
      console.log('--- the start request the service received (the sensitive value shown as *** here) ---');
      console.log(JSON.stringify(start.body, null, 2).replaceAll('demo-only-password', '***'));
    }
    console.log('--- job summary ---');
    console.log(renderSummary(result.summary));
  } finally {
    await sim.stop();
  }
}

const project = { 'project-id': 'shop-web', environment: 'staging' };
await demo('A passing project run', { project: passing }, project);
await demo('A failing project run', { project: failing }, project);
await demo(
  'A test suite run with YAML options',
  { suite },
  {
    'test-suite-id': 'checkout-regression',
    environment: 'STAGING',
    options: suiteOptions,
  },
);

// The job starts its app on localhost; the service, in the cloud, reaches it through a tunnel.
const app = await LocalApp.start();
const standIn = await StandInCloudflared.create('ok');
const internet = await ConnectProxy.start({ routes: {}, resolve: standIn.resolve });
try {
  await demo(
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

// A pull request, two pushes: the comment says what changed since the first one.
banner('Two pushes on a pull request (and the GitHub simulator): the comment after the second');
const story = await pullRequestStory();
console.log(
  Object.entries(STORY_INPUTS)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n'),
);
console.log('--- the pull request comment (Markdown; the hidden lines are the digests) ---');
console.log(story.comment);
console.log('--- outputs ---');
for (const name of ['status', 'success', 'new-failures', 'fixed', 'comment-url']) {
  console.log(`${name}=${story.outputs[name] ?? ''}`);
}

// The same two pushes, tested on their preview deployments (deployment_status) of a fork's pull request.
banner("Two preview deployments of a fork's pull request (deployment_status): the comment after the second");
const preview = await previewStory();
console.log(
  preview.log
    .split('\n')
    .filter((line) => /pull request|commit/i.test(line))
    .join('\n'),
);
console.log('--- the pull request comment on #9 ---');
console.log(preview.comment);
