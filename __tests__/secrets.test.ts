import * as fs from 'node:fs';
import * as path from 'node:path';
import { runInProcess } from './helpers/in-process.js';
import { visibleLog } from './helpers/runner-files.js';
import { Simulator } from './simulator/simulator.js';

const KEY = 'sk-live-9f8e7d6c5b4a';

let sim: Simulator;
afterEach(async () => {
  await sim?.stop();
});

test('the API key never reaches the log, outputs, summary, annotations, results file or JUnit report', async () => {
  sim = await Simulator.start({
    apiKey: KEY,
    project: {
      statuses: ['RUNNING', 'FAILED'],
      testCases: [
        { title: `login with ${KEY}`, status: 'FAILED', durationMs: 10 },
        { title: `token=${KEY}&next=1`, status: 'FLAKY', durationMs: 10 },
        { title: 'plain', status: 'PASSED', durationMs: 10 },
      ],
    },
  });
  const result = await runInProcess({
    'api-key': KEY,
    'base-url': sim.url,
    'project-id': 'proj-1',
    'poll-interval': '20ms',
    'junit-report': 'junit.xml',
  });
  expect(result.outputs.status).toBe('FAILED');
  const junit = fs.readFileSync(path.join(result.files.workspace, 'junit.xml'), 'utf8');
  const artifacts = {
    log: visibleLog(result.log),
    outputs: JSON.stringify(result.outputs),
    summary: result.summary,
    results: fs.readFileSync(result.outputs['results-file'], 'utf8'),
    junit,
  };
  for (const [name, text] of Object.entries(artifacts)) {
    expect({ name, leaks: text.includes(KEY) }).toEqual({ name, leaks: false });
    expect({ name, masked: text.includes('***') || text.includes('&#42;&#42;&#42;') }).toEqual({
      name,
      masked: name !== 'outputs',
    });
  }
  // The key is registered with the runner before anything else is printed.
  expect(result.log.startsWith(`::add-mask::${KEY}`)).toBe(true);
});
