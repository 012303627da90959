import type { Settings } from '../inputs/settings.js';
import { type CallContext, ServiceClient } from '../service/client.js';
import type { Clock } from '../service/clock.js';
import { ProjectRunDriver } from '../service/project-run.js';
import type { RunDriver, StartedRun } from '../service/run-driver.js';
import { SuiteRunDriver } from '../service/suite-run.js';

/** How the step comes by its run: the driver for it, and how to start it or which run to attach to. */
export type RunPlan = { driver: RunDriver } & (
  | { start: (context: CallContext) => Promise<StartedRun> }
  | { attachTo: string }
);

/** The only place where the two modes differ: which driver, and what starts a run. */
export function planRun(settings: Settings, clock: Clock): RunPlan {
  const client = new ServiceClient(settings.baseUrl, settings.apiKey, settings.requestTimeoutMs, clock);
  if (settings.mode === 'project') {
    const driver = new ProjectRunDriver(client, settings.projectId);
    if (settings.runId !== undefined) return { driver, attachTo: settings.runId };
    const { branch, environment, playwrightProjectName } = settings;
    return {
      driver,
      start: (context) => driver.start({ branch, environment, playwrightProjectName }, context),
    };
  }
  const driver = new SuiteRunDriver(client, settings.testSuiteId);
  if (settings.runId !== undefined) return { driver, attachTo: settings.runId };
  const { testSuiteId, suiteOptions } = settings;
  return { driver, start: (context) => driver.start(testSuiteId, suiteOptions, context) };
}
