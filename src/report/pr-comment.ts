import { redact } from '../runner/secrets.js';
import { cellText, hrefText } from './escape.js';
import { countsLine, plural } from './format.js';
import { headingOf, runLine } from './headline.js';
import type { RunOutcome, TestCase } from './outcome.js';
import { inReportOrder, isFlakyOnly } from './test-case-status.js';

/** GitHub refuses a comment body over 65,536 characters; the list of test cases stops well before. */
export const COMMENT_MAX_CHARS = 65_536;
const LIST_BUDGET_CHARS = 55_000;
const MAX_LISTED_FAILING = 30;
const MAX_LISTED_FLAKY = 10;

/** What the comment tells besides the outcome: the commit tested and the workflow run. */
export interface CommentContext {
  /** The pull request's head commit (GITHUB_SHA is the merge commit). */
  headSha?: string;
  /** The workflow run, with its attempt. */
  runUrl?: string;
}

/**
 * The hidden first line of the comment, naming its target: the mode, the project or suite, the
 * Playwright project and the environment. A matrix of targets keeps one comment each.
 */
export function commentMarker(outcome: RunOutcome): string {
  const id = outcome.mode === 'project' ? outcome.projectId : (outcome.testSuiteId ?? outcome.testSuiteName);
  const parts: [string, string | undefined][] = [
    ['mode', outcome.mode],
    [outcome.mode, id],
    ['playwright', outcome.playwrightProjectName],
    ['environment', outcome.environment],
  ];
  const named = parts
    .filter((part): part is [string, string] => part[1] !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
  return `<!-- test-run-action ${named.join(' ')} -->`;
}

/**
 * Makes text that is already escaped for HTML inert on GitHub: a zero-width space after `@`, `#`
 * and `GH-` keeps a title from mentioning a user or team or linking an issue, and one inside
 * `://` and `www.` keeps a URL from being linked (a link to an issue or pull request would record
 * a cross-reference on it).
 */
function inert(escaped: string): string {
  // `#` after `&` starts one of the escaping's own entities (`&#42;`): left alone.
  return escaped
    .replace(/@(?=[A-Za-z0-9])/g, '@&#8203;')
    .replace(/((?<!&)#|\bGH-)(?=\d)/gi, '$1&#8203;')
    .replace(/:\/\//g, ':&#8203;//')
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}&#8203;.`);
}

/** A text from the service or the inputs, for the comment: escaped as in the summary, and inert. */
function commentText(text: string, maxChars?: number): string {
  return inert(cellText(text, maxChars));
}

/** A list of test cases, each on a line, within `budget` characters; then how many more there are. */
function listed(
  title: string,
  testCases: readonly TestCase[],
  max: number,
  budget: { left: number },
): string[] {
  if (testCases.length === 0) return [];
  const lines = [`**${title}**`, ''];
  let shown = 0;
  for (const testCase of testCases.slice(0, max)) {
    const line = `- ${testCase.verdict.icon} ${commentText(testCase.verdict.label, 60)} · ${commentText(testCase.title)}`;
    if (line.length + 1 > budget.left) break;
    lines.push(line);
    budget.left -= line.length + 1;
    shown++;
  }
  if (shown < testCases.length) lines.push(`- … and ${plural(testCases.length - shown, 'more')}`);
  lines.push('');
  return lines;
}

/** The comment: the outcome, what ran and where, the counts, the failing then the flaky test cases. */
export function renderComment(outcome: RunOutcome, context: CommentContext): string {
  const ordered = inReportOrder(outcome.testCases);
  const failing = ordered.filter((testCase) => testCase.verdict.fails);
  const flaky = ordered.filter(isFlakyOnly);
  const links = [
    context.headSha ? `Commit <code>${commentText(context.headSha.slice(0, 7))}</code>` : undefined,
    context.runUrl ? `<a href="${hrefText(context.runUrl)}">workflow run</a>` : undefined,
  ].filter(Boolean);
  const budget = { left: LIST_BUDGET_CHARS };
  const lines = [
    commentMarker(outcome),
    `### ${headingOf(outcome)}`,
    '',
    runLine(outcome, commentText),
    ...(links.length > 0 ? ['', links.join(' · ')] : []),
    '',
    ...(outcome.message && !outcome.success ? [commentText(outcome.message, 1_000), ''] : []),
    `**${commentText(countsLine(outcome.counts))}**`,
    '',
    ...listed('Failed', failing, MAX_LISTED_FAILING, budget),
    ...listed('Flaky', flaky, MAX_LISTED_FLAKY, budget),
    '<sub>Kept up to date by test-run-action: the workflow run has the full list.</sub>',
  ];
  return redact(lines.join('\n'));
}
