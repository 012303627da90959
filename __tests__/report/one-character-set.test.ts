import { readFileSync } from 'node:fs';
import path from 'node:path';
import { annotate } from '../../src/report/annotations.js';
import { writeReports } from '../../src/report/index.js';
import { renderComment } from '../../src/report/pr-comment.js';
import { decodeEntities } from '../helpers/html.js';
import { captureStdout, makeOutcome, runnerFiles } from './helpers.js';

const files = runnerFiles();
/** Bidirectional embeddings, overrides and isolates, and the marks: none may reach a reader raw. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

it('a bidi control in a title is a visible escape in the summary, comment, JUnit, results file and log', async () => {
  files.reset();
  // Read left to right, this title would show as "test-approved.sh"-like text that is not what failed.
  const title = 'payment \u202Ehs.devorppa\u202C and \u2066isolated\u2069 \u200Fmark';
  const outcome = makeOutcome([{ title, status: 'FAILED' }], {
    testSuiteName: 'suite \u202Eevil',
    mode: 'suite',
  });
  const junitPath = path.join(files.dir, 'bidi', 'junit.xml');
  const stdout = captureStdout();
  let written: Awaited<ReturnType<typeof writeReports>>;
  try {
    written = await writeReports([outcome], { summary: true, resultsDir: files.dir, junitPath });
    annotate([outcome], true);
  } finally {
    stdout.restore();
  }
  const texts = {
    summary: decodeEntities(files.readSummary()),
    comment: decodeEntities(renderComment(outcome, {})),
    junit: decodeEntities(readFileSync(written.junitFile as string, 'utf8')),
    results: JSON.parse(readFileSync(written.resultsFile as string, 'utf8')).runs[0].testCases[0]
      .title as string,
    log: stdout.text(),
  };
  for (const [name, text] of Object.entries(texts)) {
    expect([name, BIDI.test(text)]).toEqual([name, false]);
    expect([name, text.includes('payment <U+202E>hs.devorppa<U+202C> and <U+2066>isolated<U+2069>')]).toEqual(
      [name, true],
    );
  }
});
