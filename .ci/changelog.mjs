// Hand-written: keep-a-changelog 3.1 rewrites the whole file, prints no one version's notes, and its CLI refuses `--release VERSION`.
/**
 *   node .ci/changelog.mjs notes VERSION          prints the notes of ## [VERSION] (exit 1: none)
 *   node .ci/changelog.mjs release VERSION DATE   Unreleased entries -> ## [VERSION] - DATE (exit 1: none,
 *       or VERSION has a section); [Unreleased] then compares vVERSION...HEAD, and [VERSION] the previous
 *       tag with vVERSION (or points at the release, for the first).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const HEADING = /^## \[([^\]]+)\]/;
const LINK = /^\[([^\]]+)\]: (\S+)/;
const FILE = 'CHANGELOG.md';

/** A `## [name]` section: the lines of its heading and after its body, and its body trimmed ('' if none). */
function section(lines, name) {
  const start = lines.findIndex((line) => HEADING.exec(line)?.[1] === name);
  let end = start + 1;
  while (start >= 0 && end < lines.length && !HEADING.test(lines[end]) && !LINK.test(lines[end])) end++;
  return { start, end, body: (start < 0 ? [] : lines.slice(start + 1, end)).join('\n').trim() };
}

function release(lines, version, date) {
  if (section(lines, version).body) throw new Error(`CHANGELOG.md already has a section [${version}]`);
  const { start, end, body } = section(lines, 'Unreleased');
  if (!body) throw new Error('CHANGELOG.md has nothing under ## [Unreleased] to release');
  const previous = lines
    .slice(end)
    .find((line) => HEADING.test(line))
    ?.match(HEADING)[1];
  const added = ['## [Unreleased]', '', `## [${version}] - ${date}`, '', body, ''];
  const out = [...lines.slice(0, start), ...added, ...lines.slice(end)];
  const at = out.findIndex((line) => LINK.exec(line)?.[1] === 'Unreleased');
  if (at >= 0) {
    const repo = LINK.exec(out[at])[2].replace(/\/(compare|releases|commits)\/.*$/, '');
    const link = previous ? `compare/v${previous}...v${version}` : `releases/tag/v${version}`;
    out.splice(at, 1, `[Unreleased]: ${repo}/compare/v${version}...HEAD`, `[${version}]: ${repo}/${link}`);
  }
  return out.join('\n');
}

const [command, version, date] = process.argv.slice(2);
const name = version?.replace(/^v/, '');
const lines = () => readFileSync(FILE, 'utf8').split('\n');
try {
  if (command === 'notes' && name) {
    const { body } = section(lines(), name);
    if (!body) throw new Error(`${FILE} has no section [${name}], or it is empty`);
    console.log(body);
  } else if (command === 'release' && name && date) {
    writeFileSync(FILE, release(lines(), name, date));
  } else {
    console.error('usage: changelog.mjs notes VERSION | release VERSION DATE');
    process.exitCode = 2;
  }
} catch (error) {
  console.error(`changelog: ${error.message}`);
  process.exitCode = 1;
}
