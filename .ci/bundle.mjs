// Bundles src/index.ts into a folder (dist/ unless named), emptied first (ncc leaves stale chunks): `npm run
// bundle` writes dist/, the tests a temporary folder.   node .ci/bundle.mjs [folder] [--format=cjs|esm]
// FORMAT is what dist/ ships, chosen by measurement (docs/performance.md, bench/results.md); ncc's API is called as
// its CLI picks ESM for a .ts entry in a "type": "module" package. terser then minifies every file (ncc's --minify
// skips the lazy chunks, turns compression off), names kept, maps chained, in ASCII: V8 reads that fastest.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ncc from '@vercel/ncc';
import { minify } from 'terser';

const FORMAT = 'cjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const format = args.find((arg) => arg.startsWith('--format='))?.slice('--format='.length) ?? FORMAT;
if (format !== 'cjs' && format !== 'esm') throw new Error(`--format must be cjs or esm, not ${format}`);
const out = path.resolve(root, args.find((arg) => !arg.startsWith('--')) ?? 'dist');

rmSync(out, { recursive: true, force: true });
const { code, map, assets } = await ncc(path.join(root, 'src', 'index.ts'), {
  esm: format === 'esm',
  filename: 'index.js',
  sourceMap: true,
  sourceMapRegister: false,
  quiet: true,
});
const files = { 'index.js': { source: code }, 'index.js.map': { source: map }, ...assets };
const ascii = (text) => text.replace(/[^\p{ASCII}]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
const kept = (_, c) =>
  /@preserve|@copyright|@lic|^\**!/i.test(Object.assign(c, { value: ascii(c.value) }).value);
for (const file of Object.keys(files).filter((name) => name.endsWith('.js'))) {
  const result = await minify(String(files[file].source), {
    module: format === 'esm',
    compress: { passes: 2 },
    mangle: { keep_classnames: true, keep_fnames: true },
    format: { ascii_only: true, comments: kept }, // kept: terser's default notices, printed escaped
    sourceMap: { content: String(files[`${file}.map`].source), filename: file, url: `${file}.map` },
  });
  files[file].source = result.code;
  files[`${file}.map`].source = result.map;
}
for (const [name, asset] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
  writeFileSync(path.join(out, name), asset.source, { mode: asset.permissions });
}
// Else the project's "type": "module" would make Node read dist/index.js as an ES module.
if (format === 'cjs') writeFileSync(path.join(out, 'package.json'), '{\n  "type": "commonjs"\n}\n');

// The notice of every package bundled, read from the source maps (ncc's --license misses most).
execFileSync(process.execPath, ['.ci/licenses.mjs', 'write', out], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
