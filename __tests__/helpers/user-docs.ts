import * as fs from 'node:fs';

/** The user's documentation: the README, then the reference pages in docs/, by name. */
export const USER_DOCS = [
  'README.md',
  ...fs
    .readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
