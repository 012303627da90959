import { runInProcess, virtualClock } from '../helpers/in-process.js';
import { projectInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import {
  DEFAULT_TOKEN,
  type FaultRule,
  GITHUB_ACTIONS_BOT,
  GitHubSimulator,
  HUMAN_USER,
  pullRequestEnv,
  SAMPLE_PULL_REQUEST,
  type SeedComment,
} from '../simulator/github.js';
import { Simulator } from '../simulator/simulator.js';

/** Only the action's own comments are edited: a comment counts as its own by its author. */
const PR = SAMPLE_PULL_REQUEST;
const MARKER = '<!-- test-run-action mode=project project=proj-1 -->';
const OTHER_BOT = { login: 'other-app[bot]', id: 90210, type: 'Bot' } as const;

let sim: Simulator;
let gh: GitHubSimulator;
afterEach(async () => {
  await sim?.stop();
  await gh?.stop();
});

async function comment(seeds: SeedComment[], faults: FaultRule[] = [], inputs: Record<string, string> = {}) {
  sim = await Simulator.start({
    project: { statuses: ['FAILED'], testCases: [{ title: 'a', status: 'FAILED' }] },
  });
  gh = await GitHubSimulator.start({ faults });
  const seeded = gh.seedComments(PR.owner, PR.repo, PR.number, seeds);
  const clock = virtualClock();
  // A request GitHub holds (hang) is cut once GitHub's request time-out (10 s) passes on the step's clock.
  for (const { operation, fault } of faults) {
    if (fault.kind === 'hang') void gh.waitForRequests(operation).then(() => clock.advance(10_000));
  }
  const result = await runInProcess(
    projectInputs(sim, { 'pr-comment': 'always', 'github-token': DEFAULT_TOKEN, ...inputs }),
    {
      clock,
      env: pullRequestEnv(gh.url),
    },
  );
  return { result, seeded, comments: gh.comments(PR.owner, PR.repo, PR.number) };
}

const OURS = { body: `${MARKER}\n### ❌ Test run failed\nthe action's own, from an earlier run` };
const PASTED = { body: `${MARKER}\n### ✅ Test run passed\npasted by a person`, user: HUMAN_USER };

describe('only its own comments', () => {
  test("a person's copy of the comment, marker and all, is never edited: the action's own is", async () => {
    const { result, seeded, comments } = await comment([OURS, PASTED]);

    expect(comments).toHaveLength(2);
    expect(comments[1]).toMatchObject({ id: seeded[1]?.id, body: PASTED.body });
    expect(comments[0]?.id).toBe(seeded[0]?.id);
    expect(comments[0]?.body).toContain('1 of 1 test case failed');
    expect(result.outputs['comment-url']).toBe(seeded[0]?.html_url);
    expect(gh.count('graphql')).toBe(1);
  });

  test("with only a person's copy on the pull request, the action writes a comment of its own", async () => {
    const { comments } = await comment([PASTED]);

    expect(comments).toHaveLength(2);
    expect(comments[0]?.body).toBe(PASTED.body);
    expect(comments[1]?.user?.login).toBe(GITHUB_ACTIONS_BOT.login);
    expect(gh.count('updateComment')).toBe(0);
  });

  test("another bot's comment with the marker is not the action's either", async () => {
    const { comments } = await comment([{ ...OURS, user: OTHER_BOT }]);

    expect(comments).toHaveLength(2);
    expect(gh.count('updateComment')).toBe(0);
  });

  test.each([
    // a GraphQL error, a refusal or a page is an answer: not tried again
    ['GraphQL answers errors', { kind: 'status', status: 200, body: { errors: [{ message: 'nope' }] } }, 1],
    ['GraphQL is forbidden', { kind: 'status', status: 403 }, 1],
    ['GraphQL answers a page that is not JSON', { kind: 'text', text: '<html>Sign in</html>' }, 1],
    ['GraphQL answers 502', { kind: 'status', status: 502 }, undefined],
    // the lookup gets a third of the comment's budget: the write keeps time to happen
    ['GraphQL never answers', { kind: 'hang' }, undefined],
  ] as const)(
    'when GitHub cannot say who the token is (%s), no earlier comment is edited or trusted: a new one is written',
    async (_, fault, attempts) => {
      // the earlier run's own comment, whose digest knows test case 'a' fails
      const earlier = (await comment([])).comments[0]?.body ?? '';
      await sim.stop();
      await gh.stop();
      const seeds = [{ body: earlier }, PASTED, { body: earlier, user: OTHER_BOT }];
      const { result, comments } = await comment(seeds, [{ operation: 'graphql', requests: 'all', fault }], {
        'fail-on': 'new',
      });

      expect(comments.slice(0, 3).map((each) => each.body)).toEqual(seeds.map((seed) => seed.body));
      expect(comments).toHaveLength(4);
      expect(comments[3]?.user?.login).toBe(GITHUB_ACTIONS_BOT.login);
      expect(result.outputs).toMatchObject({
        success: 'false',
        'new-failures': '',
        'comment-url': comments[3]?.html_url,
      });
      expect(result.log).toMatch(
        /Could not learn who the github-token acts as \(.*\): no earlier comment is updated, a new one is written\./,
      );
      // the comment is never a baseline: who wrote it does not change what the run is compared with
      expect(result.log).toContain("fail-on is 'new', but there is nothing to compare with (");
      expect(annotations(result.log, 'warning')).toEqual([]);
      if (attempts !== undefined) expect(gh.count('graphql')).toBe(attempts);
    },
  );

  test('no comment holds the marker: nobody is asked who the token is', async () => {
    const { comments } = await comment([{ body: 'LGTM', user: HUMAN_USER }]);

    expect(comments).toHaveLength(2);
    expect(gh.count('graphql')).toBe(0);
  });

  test('a comment deleted between the lookup and the update is written anew: one comment', async () => {
    const { result, seeded, comments } = await comment(
      [OURS],
      [{ operation: 'updateComment', requests: [1], fault: { kind: 'deleted' } }],
    );

    expect(comments).toHaveLength(1);
    expect(comments[0]?.id).not.toBe(seeded[0]?.id);
    expect(comments[0]?.body).toContain('1 of 1 test case failed');
    expect(result.outputs['comment-url']).toBe(comments[0]?.html_url);
    expect(result.log).toContain('The comment on pull request #7 was deleted meanwhile: writing it anew.');
    expect(annotations(result.log, 'warning')).toEqual([]);
  });
});
