import { redact } from '../runner/secrets.js';
import { DIGEST_MAX_CHARS, digestLine, digestOf } from './comment-digest.js';
import { cellText, linked } from './escape.js';
import {
  type Budget,
  comparisonHeadline,
  comparisonLists,
  countsLine,
  headingOf,
  type ListMarkup,
  MAX_LISTED,
  PARTIAL_REASON,
  runLine,
  testCaseList,
} from './format.js';
import type { RunOutcome, TestCase } from './outcome.js';
import { isFlakyOnly } from './test-case-status.js';

/** GitHub refuses a comment body over 65,536 characters; the list of test cases stops well before. */
export const COMMENT_MAX_CHARS = 65_536;
/** Room kept for the heading, the run line, the message, the counts and the list headings. */
const FRAME_CHARS = 5_536;
/** The visible lists: what the body leaves besides the frame and the two hidden digests. */
const LIST_BUDGET_CHARS = COMMENT_MAX_CHARS - 2 * DIGEST_MAX_CHARS - FRAME_CHARS;
const MAX_LISTED_FLAKY = 10;

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

const MARKDOWN: ListMarkup = {
  text: commentText,
  open: (heading) => [`**${heading}**`, ''],
  item: (html) => `- ${html}`,
  close: [''],
};

/** The failing test cases: new failures first and marked, then those still failing, then fixed ones. */
function failureLists(outcome: RunOutcome, failing: readonly TestCase[], budget: Budget): string[] {
  const { comparison } = outcome;
  if (!comparison) return testCaseList(MARKDOWN, 'Failed', failing, MAX_LISTED, budget);
  const partial = comparison.partial ? [`<sub>Compared in part: ${PARTIAL_REASON}.</sub>`, ''] : [];
  return [...partial, ...comparisonLists(comparison, MARKDOWN, budget)];
}

/**
 * The comment: the outcome (with what changed since the previous run, when known), what ran and
 * where (the pull request's head commit, not GITHUB_SHA's merge commit, and the workflow run's
 * attempt), the counts, the failing test cases (new ones first) and the fixed ones, the flaky
 * ones, and, hidden, the digest the next run compares with.
 */
export function renderComment(outcome: RunOutcome, context: { headSha?: string; runUrl?: string }): string {
  const failing = outcome.reportOrder.filter((testCase) => testCase.verdict.fails);
  const flaky = outcome.reportOrder.filter(isFlakyOnly);
  const links = [
    context.headSha ? `Commit <code>${commentText(context.headSha.slice(0, 7))}</code>` : undefined,
    context.runUrl ? linked(context.runUrl, 'workflow run') : undefined,
  ].filter(Boolean);
  const news = outcome.comparison ? ` · ${comparisonHeadline(outcome.comparison)}` : '';
  const budget = { left: LIST_BUDGET_CHARS };
  const lines = [
    commentMarker(outcome),
    `### ${headingOf(outcome)}${news}`,
    '',
    runLine(outcome, commentText),
    ...(links.length > 0 ? ['', links.join(' · ')] : []),
    '',
    ...(outcome.message && !outcome.success ? [commentText(outcome.message, 1_000), ''] : []),
    `**${commentText(countsLine(outcome.counts))}**`,
    '',
    ...failureLists(outcome, failing, budget),
    ...testCaseList(MARKDOWN, 'Flaky', flaky, MAX_LISTED_FLAKY, budget),
    '<sub>Kept up to date by test-run-action: the workflow run has the full list.</sub>',
    digestLine('digest', digestOf(failing, context.headSha)),
    ...(outcome.comparison ? [digestLine('baseline', outcome.comparison.baseline)] : []),
  ];
  return redact(lines.join('\n'));
}
