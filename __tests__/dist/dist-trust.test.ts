import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeBinaries, runDist } from '../helpers/dist-runner.js';
import { projectInputs, suiteInputs } from '../helpers/inputs.js';
import { followPeakMemory } from '../helpers/process.js';
import { annotations, makeRunnerFiles } from '../helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  GitHubSimulator,
  pullRequestEventFile,
  SAMPLE_PULL_REQUEST,
} from '../simulator/github.js';
import { Simulator } from '../simulator/simulator.js';

/** What dist/index.js believes of the service and of its inputs: only as much as it must. */
describe.each(nodeBinaries())('trust boundaries of dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  test.each(['..', '.'])(
    'a run id of %j from the service ends ERROR, and no URL is built from it',
    async (runId) => {
      sim = await Simulator.start({ runIds: [runId] });
      const result = await runDist(projectInputs(sim), { node: bin });

      expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
      expect(result.outputs['run-id']).toBeUndefined();
      expect(result.stdout).toContain(
        `::error::Could not start a project run for project 'proj-1': the response does not match the service interface: field 'runId': must be an id ('${runId}' is a path segment, not a name).`,
      );
      expect(sim.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'POST /v1/projects/proj-1/runs',
      ]);
    },
  );

  test('a test id of ".." in a suite result ends ERROR naming the field', async () => {
    sim = await Simulator.start({ suite: { testCases: [{ title: 'a', status: 'PASSED', testId: '..' }] } });
    const result = await runDist(suiteInputs(sim), { node: bin });

    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false', 'run-id': 'suite-run-1' });
    expect(result.stdout).toContain("field 'results[0].testId': must be an id");
  });

  test('a symbolic link at a report path is replaced, never followed', async () => {
    sim = await Simulator.start();
    const files = makeRunnerFiles();
    const outside = path.join(files.dir, 'outside-the-workspace.txt');
    fs.writeFileSync(outside, 'keep me');
    const junit = path.join(files.workspace, 'reports', 'junit.xml');
    const results = path.join(files.runnerTemp, 'test-run-run-1.json');
    fs.mkdirSync(path.dirname(junit));
    fs.symlinkSync(outside, junit);
    fs.symlinkSync(outside, results);

    const result = await runDist(projectInputs(sim, { 'junit-report': 'reports/junit.xml' }), {
      node: bin,
      files,
    });

    expect(result.outputs).toMatchObject({ status: 'PASSED', 'junit-file': junit, 'results-file': results });
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep me');
    expect(fs.lstatSync(junit).isFile()).toBe(true);
    expect(fs.readFileSync(junit, 'utf8')).toContain('<testsuites');
    expect(fs.lstatSync(results).isFile()).toBe(true);
    expect(fs.readdirSync(path.dirname(junit))).toEqual(['junit.xml']);
  });

  test('junit-report ending in a slash names a folder', async () => {
    sim = await Simulator.start();
    const files = makeRunnerFiles();
    const result = await runDist(projectInputs(sim, { 'junit-report': 'reports/' }), { node: bin, files });

    const junit = path.join(files.workspace, 'reports', 'junit.xml');
    expect(result.outputs).toMatchObject({ status: 'PASSED', 'junit-file': junit });
    expect(fs.readFileSync(junit, 'utf8')).toContain('<testsuites');
  });

  test('an answer that never ends: reading stops at the cap, memory stays bounded by it', async () => {
    sim = await Simulator.start({
      faults: [{ operation: 'getProjectRun', requests: 'all', fault: { kind: 'endless' } }],
    });
    let memory: { peak: () => number } | undefined;
    const result = await runDist(projectInputs(sim), {
      node: bin,
      onSpawn: (child) => {
        memory = followPeakMemory(child);
      },
    });

    expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false', 'run-id': 'run-1' });
    expect(result.stdout).toContain(
      "::error::Could not get project run 'run-1' of project 'proj-1': the answer was larger than 64 MiB, so reading stopped there.",
    );
    // one answer read, not retried: a larger answer next time would not help
    expect(sim.count('getProjectRun')).toBe(1);
    const peak = memory?.peak() ?? 0;
    expect(peak).toBeGreaterThan(64);
    expect(peak).toBeLessThan(400);
  });

  test("GitHub's comment list that never ends: reading stops at the cap, one warning, memory bounded", async () => {
    sim = await Simulator.start({ project: { statuses: ['PASSED'] } });
    const gh = await GitHubSimulator.start({
      faults: [{ operation: 'listComments', requests: 'all', fault: { kind: 'endless' } }],
    });
    let memory: { peak: () => number } | undefined;
    try {
      const result = await runDist(
        projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN }),
        {
          node: bin,
          env: {
            GITHUB_EVENT_NAME: 'pull_request',
            GITHUB_EVENT_PATH: pullRequestEventFile(SAMPLE_PULL_REQUEST),
            GITHUB_API_URL: gh.url,
          },
          onSpawn: (child) => {
            memory = followPeakMemory(child);
          },
        },
      );

      expect(result.outputs).toMatchObject({ status: 'PASSED', success: 'true', 'comment-url': '' });
      expect(annotations(result.stdout, 'warning')).toEqual([
        '::warning::Could not keep the pull request comment up to date. Could not list the comments of pull request #7 (page 1): the answer was larger than 64 MiB, so reading stopped there.',
      ]);
      expect(gh.count('listComments')).toBe(1);
      expect(gh.count('createComment')).toBe(0);
      const peak = memory?.peak() ?? 0;
      expect(peak).toBeGreaterThan(64);
      expect(peak).toBeLessThan(400);
    } finally {
      await gh.stop();
    }
  });
});
