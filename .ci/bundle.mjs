// Bundles src/index.ts into a folder (dist/ unless another is named), emptied first: ncc leaves
// stale chunks behind. `npm run bundle` writes dist/; the tests of the bundle write a temporary
// folder, so that they always run the source as it is.
//
// ncc bundles; terser then minifies every file it wrote. ncc's own --minify turns compression off
// and leaves the lazily loaded chunks alone, so code nobody calls (most of zod's core) stayed in
// and ran at every start. Names are kept, so stack traces stay readable; the source maps are
// chained to the TypeScript sources.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { minify } from 'terser';

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
    '--license',
    'licenses.txt',
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);

for (const file of readdirSync(out).filter((name) => name.endsWith('.js'))) {
  const code = readFileSync(path.join(out, file), 'utf8');
  const map = readFileSync(path.join(out, `${file}.map`), 'utf8');
  const result = await minify(code, {
    module: true,
    compress: { passes: 2 },
    mangle: { keep_classnames: true, keep_fnames: true },
    sourceMap: { content: map, filename: file, url: `${file}.map` },
  });
  writeFileSync(path.join(out, file), result.code);
  writeFileSync(path.join(out, `${file}.map`), result.map);
}

// The notice of every package bundled, read from the source maps (ncc's --license misses most).
execFileSync(process.execPath, ['.ci/licenses.mjs', 'write', out], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
