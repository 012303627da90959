#!/usr/bin/env node
/**
 * CHANGELOG.md (Keep a Changelog) for the release script and the release workflow.
 *
 *   node .ci/changelog.mjs notes VERSION [FILE]          prints the notes of ## [VERSION]
 *   node .ci/changelog.mjs release VERSION DATE [FILE]   moves the Unreleased entries into a new
 *                                                        ## [VERSION] - DATE section, and the links
 *
 * `notes` exits 1 when the section is missing or empty; `release` exits 1 when Unreleased is empty
 * or the version already has a section. The link references at the end follow the sections:
 * [Unreleased] compares the new tag with HEAD, [VERSION] compares the previous tag with the new one
 * (or points at the release, for the first).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const HEADING = /^## \[([^\]]+)\]/;
const LINK = /^\[([^\]]+)\]: (\S+)/;

/** The lines under one `## [name]` heading, without surrounding blank lines. */
export function notes(text, name) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => HEADING.exec(line)?.[1] === name);
  if (start < 0) return undefined;
  const body = [];
  for (const line of lines.slice(start + 1)) {
    if (HEADING.test(line) || LINK.test(line)) break;
    body.push(line);
  }
  const trimmed = body.join('\n').trim();
  return trimmed === '' ? undefined : trimmed;
}

export function release(text, version, date) {
  if (notes(text, version) !== undefined) throw new Error(`CHANGELOG.md already has a section [${version}]`);
  const unreleased = notes(text, 'Unreleased');
  if (unreleased === undefined) throw new Error('CHANGELOG.md has nothing under ## [Unreleased] to release');
  const lines = text.split('\n');
  const start = lines.findIndex((line) => HEADING.exec(line)?.[1] === 'Unreleased');
  let end = start + 1;
  while (end < lines.length && !HEADING.test(lines[end]) && !LINK.test(lines[end])) end++;
  const previous = lines
    .slice(end)
    .map((line) => HEADING.exec(line)?.[1])
    .find(Boolean);
  const section = ['## [Unreleased]', '', `## [${version}] - ${date}`, '', unreleased, ''];
  const out = [...lines.slice(0, start), ...section, ...lines.slice(end)];

  const unreleasedLink = out.findIndex((line) => LINK.exec(line)?.[1] === 'Unreleased');
  if (unreleasedLink >= 0) {
    const repo = LINK.exec(out[unreleasedLink])[2].replace(/\/(compare|releases|commits)\/.*$/, '');
    const versionLink = previous
      ? `[${version}]: ${repo}/compare/v${previous}...v${version}`
      : `[${version}]: ${repo}/releases/tag/v${version}`;
    out.splice(unreleasedLink, 1, `[Unreleased]: ${repo}/compare/v${version}...HEAD`, versionLink);
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, version, ...rest] = process.argv.slice(2);
  const name = version?.replace(/^v/, '');
  try {
    if (command === 'notes' && name) {
      const file = rest[0] ?? 'CHANGELOG.md';
      const found = notes(readFileSync(file, 'utf8'), name);
      if (found === undefined) throw new Error(`${file} has no section [${name}], or it is empty`);
      console.log(found);
    } else if (command === 'release' && name && rest[0]) {
      const file = rest[1] ?? 'CHANGELOG.md';
      writeFileSync(file, release(readFileSync(file, 'utf8'), name, rest[0]));
    } else {
      console.error('usage: changelog.mjs notes VERSION [FILE] | release VERSION DATE [FILE]');
      process.exitCode = 2;
    }
  } catch (error) {
    console.error(`changelog: ${error.message}`);
    process.exitCode = 1;
  }
}
