/**
 * `npm start`: runs the bundled action (dist/index.js) against the service simulator the way the
 * GitHub runner does, for a passing and a failing project run, and prints what a user would see.
 */
import { runDist } from '../helpers/dist-runner.js';
import { renderSummary } from '../helpers/render-summary.js';
import { DEFAULT_API_KEY, type ProjectScript, Simulator } from '../simulator/simulator.js';

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

function banner(text: string): void {
  const line = '='.repeat(78);
  console.log(`\n${line}\n${text}\n${line}`);
}

async function demo(title: string, script: ProjectScript): Promise<void> {
  const sim = await Simulator.start({ project: script });
  try {
    banner(`${title}: node dist/index.js, as the runner runs it, against the simulator at ${sim.url}`);
    const result = await runDist({
      'api-key': DEFAULT_API_KEY,
      'base-url': sim.url,
      'project-id': 'shop-web',
      environment: 'staging',
      'poll-interval': '300ms',
    });
    console.log('--- log ---');
    process.stdout.write(result.stdout);
    if (result.stderr) process.stdout.write(result.stderr);
    console.log(`--- exit code: ${result.code} (${result.code === 0 ? 'step passed' : 'step failed'}) ---`);
    console.log('--- outputs ---');
    for (const [name, value] of Object.entries(result.outputs)) console.log(`${name}=${value}`);
    console.log('--- job summary ---');
    console.log(renderSummary(result.summary));
  } finally {
    await sim.stop();
  }
}

await demo('A passing project run', passing);
await demo('A failing project run', failing);
