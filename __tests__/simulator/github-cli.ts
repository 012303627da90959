/**
 * Runs the GitHub simulator until Ctrl-C (the self-test workflow's pull requests and comments).
 *
 *   npx tsx __tests__/simulator/github-cli.ts [--port N] [--scenario path.json]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { GitHubSimulator, type Scenario } from './github.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, scenario: { type: 'string' } } });
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer from 0 to 65535, got ${values.port}`);
  process.exit(2);
}
const scenario: Scenario = values.scenario ? JSON.parse(readFileSync(values.scenario, 'utf8')) : {};
const gh = await GitHubSimulator.start(scenario, { port });
console.log(`GitHub simulator listening on ${gh.url}`);
const shutdown = (): void => {
  gh.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
