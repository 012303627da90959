import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIST_ENTRY } from '../helpers/dist-runner.js';

// What the step parses before its first request is most of its start-up (docs/performance.md).
const dir = path.dirname(DIST_ENTRY);
const files = fs.readdirSync(dir).filter((name) => name.endsWith('.js'));

test.each(files)('%s is ASCII only, the text V8 reads fastest', (name) => {
  const text = fs.readFileSync(path.join(dir, name), 'utf8');
  const wide = [...text.matchAll(/[^\p{ASCII}]/gu)].map((match) => {
    const around = text.slice(Math.max(0, match.index - 40), match.index + 10);
    return `U+${match[0].codePointAt(0)?.toString(16).toUpperCase()} in ...${around}`;
  });
  // .ci/bundle.mjs has terser escape strings and the notices it keeps; it leaves a tagged template
  // as written: write a character past ASCII there as \uXXXX.
  expect(wide).toEqual([]);
});

const LOADED_LATER = ['zod', 'js-yaml', '@actions/github', '@octokit/core', '@actions/tool-cache'];

test('the entry file holds none of what loads after the first request or for options only', () => {
  const { sources } = JSON.parse(fs.readFileSync(`${DIST_ENTRY}.map`, 'utf8')) as { sources: string[] };
  const packages = new Set(sources.map((source) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1]));
  expect(LOADED_LATER.filter((name) => packages.has(name))).toEqual([]);
  expect(sources.filter((source) => source.includes('src/tunnel/open.ts'))).toEqual([]);
  // The chunks hold them (a renamed package would pass the check above unseen).
  expect(packages.has('undici')).toBe(true);
});
