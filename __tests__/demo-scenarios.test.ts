import * as fs from 'node:fs';
import { runProcess } from './helpers/process.js';

test("the README's table of demo scenarios lists the demo's scenarios, and which fail on purpose", async () => {
  const args = ['--import', 'tsx', '__tests__/scripts/demo.ts', '--json'];
  const run = await runProcess(process.execPath, args, { env: { PATH: process.env.PATH ?? '' } });
  expect(run.code).toBe(0);
  const scenarios = JSON.parse(run.stdout) as { name: string; passes: boolean }[];
  const readme = fs.readFileSync('README.md', 'utf8');
  const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| .* \| (passes|fails, on purpose[^|]*) \|$/gm)];
  expect(rows.map(([, name, step]) => ({ name, passes: step === 'passes' }))).toEqual(scenarios);
});
