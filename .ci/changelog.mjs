// Hand-written: keep-a-changelog 3.1 rewrites the whole file, prints no one version's notes, and its CLI refuses `--release VERSION`.
/**
 *   node .ci/changelog.mjs notes VERSION [FILE]          prints the notes of ## [VERSION] (exit 1: none)
 *   node .ci/changelog.mjs release VERSION DATE [FILE]   Unreleased entries -> ## [VERSION] - DATE (exit 1:
 *       none, or VERSION has a section); [Unreleased] then compares vVERSION...HEAD, and [VERSION] the
 *       previous tag with vVERSION (or points at the release, for the first).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const HEADING = /^## \[([^\]]+)\]/;
const LINK = /^\[([^\]]+)\]: (\S+)/;
const ends = (line) => HEADING.test(line) || LINK.test(line);

/** The line numbers of one `## [name]` section: its heading, and the line after its body. */
function section(lines, name) {
  const start = lines.findIndex((line) => HEADING.exec(line)?.[1] === name);
  let end = start + 1;
  while (start >= 0 && end < lines.length && !ends(lines[end])) end++;
  return { start, end };
}

/** The lines under one `## [name]` heading, without surrounding blank lines; undefined when none. */
function notes(text, name) {
  const lines = text.split('\n');
  const { start, end } = section(lines, name);
  return (
    (start < 0
      ? ''
      : lines
          .slice(start + 1, end)
          .join('\n')
          .trim()) || undefined
  );
}

function release(text, version, date) {
  if (notes(text, version) !== undefined) throw new Error(`CHANGELOG.md already has a section [${version}]`);
  const unreleased = notes(text, 'Unreleased');
  if (unreleased === undefined) throw new Error('CHANGELOG.md has nothing under ## [Unreleased] to release');
  const lines = text.split('\n');
  const { start, end } = section(lines, 'Unreleased');
  const previous = lines
    .slice(end)
    .find((line) => HEADING.test(line))
    ?.match(HEADING)[1];
  const added = ['## [Unreleased]', '', `## [${version}] - ${date}`, '', unreleased, ''];
  const out = [...lines.slice(0, start), ...added, ...lines.slice(end)];
  const at = out.findIndex((line) => LINK.exec(line)?.[1] === 'Unreleased');
  if (at >= 0) {
    const repo = LINK.exec(out[at])[2].replace(/\/(compare|releases|commits)\/.*$/, '');
    const link = previous ? `compare/v${previous}...v${version}` : `releases/tag/v${version}`;
    out.splice(at, 1, `[Unreleased]: ${repo}/compare/v${version}...HEAD`, `[${version}]: ${repo}/${link}`);
  }
  return out.join('\n');
}

const [command, version, ...rest] = process.argv.slice(2);
const name = version?.replace(/^v/, '');
const file = (command === 'notes' ? rest[0] : rest[1]) ?? 'CHANGELOG.md';
try {
  if (command === 'notes' && name) {
    const found = notes(readFileSync(file, 'utf8'), name);
    if (found === undefined) throw new Error(`${file} has no section [${name}], or it is empty`);
    console.log(found);
  } else if (command === 'release' && name && rest[0]) {
    writeFileSync(file, release(readFileSync(file, 'utf8'), name, rest[0]));
  } else {
    console.error('usage: changelog.mjs notes VERSION [FILE] | release VERSION DATE [FILE]');
    process.exitCode = 2;
  }
} catch (error) {
  console.error(`changelog: ${error.message}`);
  process.exitCode = 1;
}
