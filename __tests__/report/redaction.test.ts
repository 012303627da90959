import { readFileSync } from 'node:fs';
import path from 'node:path';
import { annotate } from '../../src/report/annotations.js';
import { writeReports } from '../../src/report/index.js';
import { clearSecrets, registerSecret } from '../../src/runner/secrets.js';
import { decodeEntities } from '../helpers/html.js';
import { captureStdout, makeOutcome, runnerFiles } from './helpers.js';

const files = runnerFiles();
// With characters the summary and JUnit escape (`_`, `&`): the checks read the decoded text.
const SECRET = 'tok_S3cr3t&value';

afterEach(() => clearSecrets());

it('no secret reaches the summary, results file, JUnit report, log or annotations', async () => {
  files.reset();
  const stdout = captureStdout();
  registerSecret(SECRET);
  const registered = stdout.text();
  expect(registered).toContain('::add-mask::');

  const titles = [
    `login with ${SECRET}`,
    `<${SECRET}>`,
    `${SECRET}\n${SECRET}`,
    `${'x'.repeat(195)}${SECRET}`,
    // Split by a control character, which cleaning removes: it must still come out masked.
    `${SECRET.slice(0, 5)}\u0007${SECRET.slice(5)}`,
  ];
  const outcome = makeOutcome(
    titles.flatMap((title) => [
      { title, status: 'FAILED' },
      { title, status: 'FLAKY' },
      { title, status: 'PASSED' },
    ]),
    {
      mode: 'suite',
      testSuiteName: `suite ${SECRET}`,
      branch: `feature/${SECRET}`,
      message: `service said: bad key ${SECRET}`,
      notes: [`note ${SECRET}`],
      appliedOptions: { variables: { TOKEN: SECRET } },
    },
  );
  const junitPath = path.join(files.dir, 'junit', 'report.xml');
  let written: Awaited<ReturnType<typeof writeReports>>;
  try {
    written = await writeReports([outcome], { summary: true, resultsDir: files.dir, junitPath });
    annotate([outcome], true);
  } finally {
    stdout.restore();
  }

  const texts = {
    summary: decodeEntities(files.readSummary()),
    results: readFileSync(written.resultsFile as string, 'utf8'),
    junit: decodeEntities(readFileSync(written.junitFile as string, 'utf8')),
    stdout: stdout.text().slice(registered.length),
    outputs: readFileSync(process.env.GITHUB_OUTPUT as string, 'utf8'),
  };
  for (const [name, text] of Object.entries(texts)) {
    expect([name, text.includes(SECRET) || text.includes(SECRET.slice(0, 8))]).toEqual([name, false]);
  }
  expect(texts.summary).toContain('login with ***');
  expect(texts.summary).toContain('"TOKEN": "***"');
  expect(texts.results).toContain('login with ***');
  expect(texts.junit).toContain('login with ***');
  expect(texts.stdout).toContain('::error title=login with ***::');
});
