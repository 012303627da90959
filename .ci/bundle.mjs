// Bundles src/index.ts with ncc into a folder (dist/ unless another is named), emptied first:
// ncc leaves stale chunks behind. `npm run bundle` writes dist/; the tests of the bundle write a
// temporary folder, so that they always run the source as it is.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(root, process.argv[2] ?? 'dist');
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js');

rmSync(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [
    ncc,
    'build',
    'src/index.ts',
    '-o',
    out,
    '--source-map',
    '--no-source-map-register',
    '--minify',
    '--license',
    'licenses.txt',
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
