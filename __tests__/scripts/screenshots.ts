/**
 * `npm run screenshots`: the README's pictures of the pull request comment and the job summary,
 * made from what dist/index.js really writes in the pull request story (pull-request-story.ts),
 * rendered as GitHub renders Markdown (cmark-gfm, GitHub's own fork of cmark, with its extensions)
 * and photographed by headless Chromium. Both come from Debian's packages:
 *
 *   apt-get install cmark-gfm chromium fonts-noto-color-emoji
 *
 * It also writes what it rendered beside the pictures; a test compares that with what the action
 * writes today, so the pictures cannot drift from the code unnoticed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PICTURES, pictureSources } from './pictures.js';
import { historyStory } from './pull-request-story.js';

const WIDTH = 860;

/** Plain styles close to GitHub's light theme (written here, not GitHub's stylesheet). */
const STYLE = `
body { margin: 0; background: #ffffff; }
.frame { margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
.frame > .title { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px;
  font: 14px "Segoe UI", "DejaVu Sans", sans-serif; color: #59636e; }
.body { padding: 16px; font: 14px/1.5 "Segoe UI", "DejaVu Sans", sans-serif; color: #1f2328; }
.body > :first-child { margin-top: 0; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; margin: 24px 0 16px; }
h3 { font-size: 1.25em; margin: 24px 0 16px; }
h2, h3 { font-weight: 600; line-height: 1.25; }
p, ul, table { margin: 0 0 16px; }
ul { padding-left: 2em; }
a { color: #0969da; text-decoration: none; }
code { font: 85% ui-monospace, "DejaVu Sans Mono", monospace; background: #818b981f; padding: .2em .4em;
  border-radius: 6px; }
sub { font-size: 75%; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; } tr:nth-child(2n) { background: #f6f8fa; }
`;

function chromium(args: string[]): string {
  return execFileSync(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--force-device-scale-factor=1',
      ...args,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

/**
 * GitHub draws a ```mermaid block as a chart: so does the picture, with Mermaid's own browser build
 * from node_modules (a dev dependency), in place of the code block cmark-gfm writes for it.
 */
const MERMAID = `<script src="${pathToFileURL(path.resolve('node_modules/mermaid/dist/mermaid.min.js')).href}"></script><script>mermaid.initialize({ startOnLoad: true, theme: 'default' });</script>`;
const asCharts = (html: string) =>
  html.replace(
    /<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g,
    '<pre class="mermaid">$1</pre>',
  );

function photograph(html: string, title: string, file: string, work: string): void {
  const page = path.join(work, `${path.basename(file, '.png')}.html`);
  const measure = `<script>addEventListener('load', () => { document.title = 'height=' + Math.ceil(document.querySelector('.frame').getBoundingClientRect().bottom + 16); });</script>`;
  const document = (extra: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style>${extra}</head><body><div class="frame"><div class="title">${title}</div><div class="body">${html}</div></div></body></html>`;
  writeFileSync(page, document(`${MERMAID}${measure}`));
  // Time for Mermaid to draw the charts before the page is measured and photographed.
  const settle = '--virtual-time-budget=10000';
  const height = Number(
    /height=(\d+)/.exec(
      chromium([`--window-size=${WIDTH},4000`, settle, '--dump-dom', pathToFileURL(page).href]),
    )?.[1],
  );
  if (!Number.isFinite(height) || height <= 0) throw new Error(`could not measure ${page}`);
  writeFileSync(page, document(MERMAID));
  chromium([`--window-size=${WIDTH},${height}`, settle, `--screenshot=${file}`, pathToFileURL(page).href]);
  console.log(`${path.relative(process.cwd(), file)}: ${WIDTH} × ${height}`);
}

const story = await historyStory();
const sources = pictureSources(story);
const work = mkdtempSync(path.join(tmpdir(), 'screenshots-'));
try {
  for (const picture of PICTURES) {
    writeFileSync(picture.source, sources[picture.name]);
    // GitHub renders comments and summaries with cmark-gfm; raw HTML passes, as GitHub's own filter allows it.
    const html = execFileSync(
      'cmark-gfm',
      [
        '--unsafe',
        '--extension',
        'table',
        '--extension',
        'autolink',
        '--extension',
        'strikethrough',
        '--extension',
        'tagfilter',
      ],
      { input: sources[picture.name], encoding: 'utf8' },
    );
    photograph(asCharts(html), picture.title, picture.image, work);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
