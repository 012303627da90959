import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The README, docs/ and the other pages a user or contributor reads link to each other by file
 * and heading: every such link must land on a file that exists and, with `#anchor`, on a heading
 * of it (GitHub's anchors: the heading in lower case, punctuation dropped, spaces as `-`, `-1`
 * after a repeat).
 */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  'CHANGELOG.md',
  ...fs
    .readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The anchors GitHub gives a Markdown file's headings (code blocks left out). */
function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading = ''] of text.matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** `[text](target)` links outside code, with no scheme: those that stay in the repository. */
function localLinks(file: string): string[] {
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe('links between the pages', () => {
  test.each(PAGES)('%s: every local link lands on a file, and on a heading of it', (page) => {
    const broken: string[] = [];
    for (const target of localLinks(page)) {
      const [pathPart = '', anchor] = target.split('#');
      const file = pathPart === '' ? page : path.normalize(path.join(path.dirname(page), pathPart));
      if (!fs.existsSync(file)) broken.push(`${target}: no file ${file}`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchors(file).has(anchor)) {
        broken.push(`${target}: no heading '#${anchor}' in ${file}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('the README links every page of docs/', () => {
    const linked = new Set(localLinks('README.md').map((target) => target.split('#')[0]));
    const pages = fs.readdirSync('docs').filter((name) => name.endsWith('.md'));
    expect(pages.filter((name) => !linked.has(`docs/${name}`))).toEqual([]);
  });
});
