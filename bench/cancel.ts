/**
 * Cancelling dist/index.js as the runner does: SIGINT, which the runner follows with SIGTERM 7.5 s
 * later. The time from the signal to the step's exit (outputs and summary written), on two paths:
 *
 * - a poll in progress: the run is cancelled on the service at once;
 * - the worst one: the start answered 3.2 s after the signal (just inside the start's grace of
 *   3.5 s), then a cancel that never answers, cut by the job's budget (5.5 s after the signal).
 *
 * The tests assert what happens on these paths; how long it takes is measured here.
 * `npx tsx bench/cancel.ts [rounds]` prints the figures; bench.ts calls measureCancel.
 */
import { pathToFileURL } from 'node:url';
import { nodeBinaries, runDist } from '../__tests__/helpers/dist-runner.js';
import { projectInputs } from '../__tests__/helpers/inputs.js';
import { type Operation, type Scenario, Simulator } from '../__tests__/simulator/simulator.js';
import { median, ms, table } from './stats.js';

const PATHS: { name: string; scenario: Scenario; signalOn: Operation; count: number }[] = [
  {
    name: 'a poll in progress: cancelled on the service',
    scenario: { project: { statuses: ['RUNNING'] } },
    signalOn: 'getProjectRun',
    count: 2,
  },
  {
    name: 'the start answered 3.2 s after SIGINT, the cancel never answered',
    scenario: {
      project: { statuses: ['RUNNING'] },
      faults: [
        { operation: 'startProjectRun', requests: [1], fault: { kind: 'delay', ms: 3200 } },
        { operation: 'cancelProjectRun', requests: 'all', fault: { kind: 'hang' } },
      ],
    },
    signalOn: 'startProjectRun',
    count: 1,
  },
];

/** Milliseconds from SIGINT to the step's exit, on each path, `rounds` times. */
export async function measureCancel(bin: string, rounds = 3): Promise<Map<string, number[]>> {
  const figures = new Map<string, number[]>();
  for (const { name, scenario, signalOn, count } of PATHS) {
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const sim = await Simulator.start(scenario);
      try {
        let signalled = Number.NaN;
        const result = await runDist(projectInputs(sim, { 'poll-interval': '100ms' }), {
          node: bin,
          onSpawn: (child) => {
            void sim.waitForRequests(signalOn, count).then(() => {
              signalled = performance.now();
              child.kill('SIGINT');
            });
          },
        });
        times.push(performance.now() - signalled);
        if (result.outputs.status !== 'CANCELLED') throw new Error(`not cancelled:\n${result.stdout}`);
      } finally {
        await sim.stop();
      }
    }
    figures.set(name, times);
  }
  return figures;
}

export function cancelTable(figures: Map<string, number[]>): string {
  const rows = [...figures].map(([name, times]) => [name, ms(median(times), 0), ms(Math.max(...times), 0)]);
  return table(['SIGINT to exit (the runner sends SIGTERM at 7.5 s)', 'median', 'max'], rows);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rounds = Number(process.argv[2] ?? '3');
  for (const node of nodeBinaries()) {
    console.log(`\n${node.name}, ${rounds} rounds:\n`);
    console.log(cancelTable(await measureCancel(node.bin, rounds)));
  }
}
