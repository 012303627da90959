import { hideSensitiveValues } from '../inputs/sensitive-overrides.js';
import type { Settings } from '../inputs/settings.js';
import { type CallContext, ServiceClient } from '../service/client.js';
import type { Clock } from '../service/clock.js';
import { ProjectRunDriver, type RunDriver, type StartedRun, SuiteRunDriver } from '../service/run-driver.js';

export type RunPlan = { driver: RunDriver } & (
  | { start: (context: CallContext) => Promise<StartedRun> }
  | { attachTo: string }
);

/** The only place where the two modes differ: which driver, and what starts a run. */
export function planRun(settings: Settings, clock: Clock): RunPlan {
  const client = new ServiceClient(settings.baseUrl, settings.apiKey, settings.requestTimeoutMs, clock);
  const { target } = settings;
  if (target.kind === 'project') {
    const driver = new ProjectRunDriver(client, target.projectId);
    if (target.runId !== undefined) return { driver, attachTo: target.runId };
    const { branch, environment } = settings;
    const { playwrightProjectName } = target;
    return {
      driver,
      start: (context) => driver.start({ branch, environment, playwrightProjectName }, context),
    };
  }
  const driver = new SuiteRunDriver(client, target.testSuiteId);
  if (target.kind === 'suite-attach') return { driver, attachTo: target.runId };
  const { testSuiteId, options } = target;
  const start = async (context: CallContext): Promise<StartedRun> => {
    const started = await driver.start(testSuiteId, options, context);
    const appliedOptions = started.appliedOptions && hideSensitiveValues(started.appliedOptions, options);
    return { ...started, appliedOptions };
  };
  return { driver, start };
}
