// Bundles src/ into a temporary folder before any test file runs, so that the tests of the bundle
// run the source as it is, not the last committed dist/. DIST_UNDER_TEST names the bundle's entry
// for the test workers (and for global-teardown.mjs, which removes the folder).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function bundleForTests() {
  if (process.env.DIST_UNDER_TEST) return; // given by the caller, e.g. to test a release's dist/
  const dir = mkdtempSync(path.join(os.tmpdir(), 'test-run-action-dist-'));
  execFileSync(process.execPath, ['.ci/bundle.mjs', dir], { stdio: 'inherit' });
  process.env.DIST_UNDER_TEST = path.join(dir, 'index.js');
  process.env.DIST_UNDER_TEST_TEMPORARY = dir;
}
