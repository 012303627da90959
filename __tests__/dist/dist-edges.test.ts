import { nodeBinaries, runDist } from '../helpers/dist-runner.js';
import { projectInputs, suiteInputs } from '../helpers/inputs.js';
import { annotations } from '../helpers/runner-files.js';
import { Simulator } from '../simulator/simulator.js';

/** The trust rules of round 4 that need no tunnel and no GitHub, as a user of dist/ sees them. */
describe.each(nodeBinaries())('text, local URLs and links on dist/index.js on $name', ({ bin }) => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.stop();
  });

  test('a right-to-left override in a title is a visible escape in the summary and the log', async () => {
    sim = await Simulator.start({
      suite: { testCases: [{ title: 'pay \u202Ehs.lacol\u202C now', status: 'FAILED' }] },
    });
    const result = await runDist(suiteInputs(sim), { node: bin });
    expect(result.outputs.status).toBe('FAILED');
    expect(result.summary).toContain('pay &lt;U+202E&gt;hs.lacol&lt;U+202C&gt; now');
    expect(result.stdout).toContain('pay <U+202E>hs.lacol<U+202C> now');
    for (const text of [result.summary, result.stdout])
      expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  test.each(['http://0.0.0.0:3000/', 'http://[::ffff:127.0.0.1]:3000/', 'ws://localhost.:3000/'])(
    'an untunnelled local URL in the options, spelt %s, is an input error before any request',
    async (url) => {
      sim = await Simulator.start();
      const options = JSON.stringify({
        urlReplacements: [{ original: 'https://shop.example', replacement: url }],
      });
      // A service in the cloud, as far as the inputs tell: a loopback base-url would allow local URLs.
      const inputs = {
        ...suiteInputs(sim, { options }),
        'base-url': 'https://tests.invalid',
        'poll-interval': '1s',
      };
      const result = await runDist(inputs, { node: bin });
      expect(result.outputs).toMatchObject({ status: 'ERROR', success: 'false' });
      expect(annotations(result.stdout, 'error')).toEqual([
        expect.stringContaining("open a tunnel to it with the input 'tunnel: http"),
      ]);
    },
  );

  test('a run id that would choose the link’s host gives no link and one warning', async () => {
    sim = await Simulator.start({ runIds: ['evil.example'] });
    const result = await runDist(projectInputs(sim, { 'dashboard-url': 'https://{runId}.dash.example/' }), {
      node: bin,
    });
    expect(result.outputs).toMatchObject({ status: 'PASSED', 'dashboard-url': '' });
    expect(annotations(result.stdout, 'warning')).toHaveLength(1);
    expect(result.summary).not.toContain('dash.example');
  });
});
