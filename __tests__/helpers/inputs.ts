import { DEFAULT_API_KEY, type Simulator } from '../simulator/simulator.js';

type Inputs = Record<string, string>;

const against = (sim: Simulator): Inputs => ({
  'api-key': DEFAULT_API_KEY,
  'base-url': sim.url,
  'poll-interval': '20ms',
});

/** The inputs of a project run of proj-1 against `sim`, polled every 20 ms; `extra` over them. */
export const projectInputs = (sim: Simulator, extra: Inputs = {}): Inputs => ({
  ...against(sim),
  'project-id': 'proj-1',
  ...extra,
});

/** The inputs of a test suite run of suite-1 against `sim`, polled every 20 ms; `extra` over them. */
export const suiteInputs = (sim: Simulator, extra: Inputs = {}): Inputs => ({
  ...against(sim),
  'test-suite-id': 'suite-1',
  ...extra,
});
