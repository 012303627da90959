/**
 * Runs the service simulator until Ctrl-C.
 *
 *   npx tsx __tests__/simulator/cli.ts [--port N] [--scenario path.json]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_API_KEY, type Scenario, Simulator } from './simulator.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    scenario: { type: 'string' },
  },
});

const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer from 0 to 65535, got ${values.port}`);
  process.exit(2);
}
const scenario: Scenario = values.scenario
  ? (JSON.parse(readFileSync(values.scenario, 'utf8')) as Scenario)
  : {};
// Run by hand or by a workflow, the simulator "runs the tests" (Scenario.app) the way this
// machine reaches the internet: through https_proxy, trusting NODE_EXTRA_CA_CERTS, when set.
if (scenario.app) {
  const caFile = process.env.NODE_EXTRA_CA_CERTS;
  scenario.app = {
    proxy: process.env.https_proxy || process.env.HTTPS_PROXY || undefined,
    ca: caFile ? readFileSync(caFile) : undefined,
    ...scenario.app,
  };
}

const sim = await Simulator.start(scenario, { port });
console.log(`Simulator listening on ${sim.url}`);
console.log(`API key: ${scenario.apiKey ?? DEFAULT_API_KEY}`);
console.log('Press Ctrl-C to stop.');

const shutdown = (): void => {
  sim.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
