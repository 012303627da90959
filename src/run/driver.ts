import type { Settings } from '../inputs/settings.js';
import { ServiceClient } from '../service/client.js';
import type { Clock } from '../service/clock.js';
import type { RunDriver } from '../service/driver.js';
import { ProjectRunDriver } from '../service/project-run.js';
import { SuiteRunDriver } from '../service/suite-run.js';

/** The only place where the two modes differ: the driver that talks to the service. */
export function createDriver(settings: Settings, clock: Clock): RunDriver {
  const client = new ServiceClient(settings.baseUrl, settings.apiKey, settings.requestTimeoutMs, clock);
  if (settings.mode === 'project') {
    return new ProjectRunDriver(client, {
      projectId: settings.projectId ?? '',
      branch: settings.branch,
      environment: settings.environment,
      playwrightProjectName: settings.playwrightProjectName,
    });
  }
  return new SuiteRunDriver(client, settings.testSuiteId, settings.suiteOptions);
}
