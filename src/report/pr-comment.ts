import { redact } from '../runner/secrets.js';
import { DIGEST_MAX_CHARS, digestLine, digestOf } from './comment-digest.js';
import { cellText, linked } from './escape.js';
import {
  comparisonHeadline,
  comparisonLists,
  countsLine,
  headingOf,
  type ListMarkup,
  runLine,
  testCaseList,
} from './format.js';
import type { RunOutcome } from './outcome.js';
import { isFlakyOnly } from './test-case-status.js';

/** GitHub refuses a comment body over 65,536 characters. */
export const COMMENT_MAX_CHARS = 65_536;
/** Room kept for the heading, the run line, the message, the counts and the list headings. */
const FRAME_CHARS = 5_536;
const LIST_BUDGET_CHARS = COMMENT_MAX_CHARS - 2 * DIGEST_MAX_CHARS - FRAME_CHARS;

/** What tells one target from another in a hidden marker: its kind, id, Playwright project and environment. */
export function targetKey(
  outcome: Pick<
    RunOutcome,
    'mode' | 'projectId' | 'testSuiteId' | 'testSuiteName' | 'playwrightProjectName' | 'environment'
  >,
): string {
  const id = outcome.mode === 'project' ? outcome.projectId : (outcome.testSuiteId ?? outcome.testSuiteName);
  const parts = {
    mode: outcome.mode,
    [outcome.mode]: id,
    playwright: outcome.playwrightProjectName,
    environment: outcome.environment,
  };
  return Object.entries(parts)
    .flatMap(([key, value]) => (value === undefined ? [] : [`${key}=${encodeURIComponent(value)}`]))
    .join(' ');
}

/** The hidden first line names the target, so that a matrix of targets keeps one comment each. */
export function commentMarker(outcome: RunOutcome): string {
  return `<!-- test-run-action ${targetKey(outcome)} -->`;
}

/**
 * Escaped as in the summary, and inert on GitHub: a zero-width space after `@`, `#` and `GH-` keeps
 * a title from mentioning a user or team or linking an issue, and one inside `://` and `www.` keeps
 * a URL from being linked (a link to an issue or pull request would record a cross-reference on it).
 */
function commentText(text: string, maxChars?: number): string {
  // `#` after `&` starts one of the escaping's own entities (`&#42;`): left alone.
  return cellText(text, maxChars)
    .replace(/@(?=[A-Za-z0-9])/g, '@&#8203;')
    .replace(/((?<!&)#|\bGH-)(?=\d)/gi, '$1&#8203;')
    .replace(/:\/\//g, ':&#8203;//')
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}&#8203;.`);
}

const MARKDOWN: ListMarkup = {
  text: commentText,
  item: (html) => `- ${html}`,
  list: (heading, items) => [`**${heading}**`, '', ...items, ''],
  note: (text) => [`<sub>${text}</sub>`, ''],
};

/** `headSha` is the pull request's head commit, which the run tested: GITHUB_SHA is a merge commit on no branch. */
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
    ...(outcome.comparison
      ? [`<sub>Compared with ${commentText(outcome.comparison.against)}.</sub>`, '']
      : []),
    runLine(outcome, commentText),
    ...(links.length > 0 ? ['', links.join(' · ')] : []),
    '',
    ...(outcome.message && !outcome.success ? [commentText(outcome.message, 1_000), ''] : []),
    `**${commentText(countsLine(outcome.counts))}**`,
    '',
    ...(outcome.comparison
      ? comparisonLists(outcome.comparison, MARKDOWN, budget)
      : testCaseList(MARKDOWN, 'Failed', failing, budget)),
    ...testCaseList(MARKDOWN, 'Flaky', flaky, budget, { max: 10 }),
    '<sub>Kept up to date by test-run-action: the workflow run has the full list.</sub>',
    digestLine('digest', digestOf(failing, context.headSha)),
    ...(outcome.comparison ? [digestLine('baseline', outcome.comparison.baseline)] : []),
  ];
  return redact(lines.join('\n'));
}
