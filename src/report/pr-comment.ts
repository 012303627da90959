import { redact } from '../runner/secrets.js';
import { clean } from '../runner/text.js';
import { escapeHtml, linked, UNTITLED } from './escape.js';
import {
  countsLine,
  headingOf,
  historyLists,
  judgmentLine,
  judgmentLists,
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

/** What tells one target from another in a hidden marker: its kind, id, Playwright project and environment. */
function targetKey(outcome: RunOutcome): string {
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

/** A word that GitHub would link: one holding `://` or starting a host with `www.`. */
const URL_WORD = /\S*(?::\/\/|\bwww\.)\S*/gi;

/**
 * Escaped as in the summary, and inert on GitHub: a zero-width space after `@`, `#` and `GH-` keeps
 * a title from mentioning a user or team or linking an issue. A word holding a URL goes whole into
 * a code span, which GitHub neither links nor reads for references (a link to an issue or pull
 * request would record a cross-reference on it), and which copies as written.
 */
function commentText(text: string, maxChars = 200): string {
  const cleaned = clean(text, maxChars, 'fold');
  if (cleaned === '') return UNTITLED;
  let html = '';
  let from = 0;
  for (const word of cleaned.matchAll(URL_WORD)) {
    html += inert(escapeHtml(cleaned.slice(from, word.index))) + codeSpan(word[0]);
    from = word.index + word[0].length;
  }
  return html + inert(escapeHtml(cleaned.slice(from)));
}

function inert(html: string): string {
  // `#` after `&` starts one of the escaping's own entities (`&#42;`): left alone.
  return html.replace(/@(?=[A-Za-z0-9])/g, '@&#8203;').replace(/((?<!&)#|\bGH-)(?=\d)/gi, '$1&#8203;');
}

/** Its content is literal: fenced by more backticks than any run inside it, padded where it starts or ends with one. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

const MARKDOWN: ListMarkup = {
  text: commentText,
  item: (html) => `- ${html}`,
  list: (heading, items) => [`**${heading}**`, '', ...items, ''],
  note: (text) => [`<sub>${text}</sub>`, ''],
};

/** `headSha` is the pull request's head commit, which the run tested: GITHUB_SHA is a merge commit on no branch. */
export function renderComment(
  outcome: RunOutcome,
  context: { headSha?: string; runUrl?: string; maxChars?: number; marker?: string },
): string {
  const { maxChars = COMMENT_MAX_CHARS } = context;
  // A section of a step's comment gets a share of everything: its lists, its message.
  const frameChars = Math.floor((maxChars * FRAME_CHARS) / COMMENT_MAX_CHARS);
  const links = [
    context.headSha ? `Commit <code>${commentText(context.headSha.slice(0, 7))}</code>` : undefined,
    context.runUrl ? linked(context.runUrl, 'workflow run') : undefined,
  ].filter(Boolean);
  const budget = { left: maxChars - frameChars };
  const lines = [
    ...(context.marker === '' ? [] : [context.marker ?? stepMarker([outcome])]),
    `### ${headingOf(outcome)}${judgmentLine(outcome)}`,
    '',
    ...comparedWith(outcome),
    runLine(outcome, commentText),
    ...(links.length > 0 ? ['', links.join(' · ')] : []),
    '',
    ...(outcome.message && !outcome.success
      ? [commentText(outcome.message, Math.min(1_000, frameChars / 4)), '']
      : []),
    `**${commentText(countsLine(outcome.counts))}**`,
    '',
    ...judgmentLists(outcome, MARKDOWN, budget),
    ...testCaseList(MARKDOWN, 'Flaky', outcome.reportOrder.filter(isFlakyOnly), budget, { max: 10 }),
    ...historyLists(outcome, MARKDOWN, budget),
    '<sub>Kept up to date by test-run-action: the workflow run has the full list.</sub>',
  ];
  return redact(lines.join('\n'));
}

/** What the run was compared with, or why nothing, as a line of the comment. */
function comparedWith({ judgment }: RunOutcome): string[] {
  if (judgment?.against) return [`<sub>Compared with ${commentText(judgment.against)}.</sub>`, ''];
  if (judgment?.whyNone) return [`<sub>Nothing to compare with: ${commentText(judgment.whyNone)}.</sub>`, ''];
  return [];
}

/** The commit the comment reported, hidden: a run of an older commit must not overwrite it. */
function reportedLine(commit: string | undefined): string[] {
  return commit && /^[0-9a-f]{40,64}$/.test(commit) ? [`<!-- test-run-action commit=${commit} -->`] : [];
}

/** The comment's identity: the step's targets, in order. */
export function stepMarker(outcomes: readonly RunOutcome[]): string {
  const [only] = outcomes;
  if (outcomes.length === 1 && only) return `<!-- test-run-action ${targetKey(only)} -->`;
  return `<!-- test-run-action step ${outcomes.map((outcome) => `[${targetKey(outcome)}]`).join(' ')} -->`;
}

/** One target: its comment as ever. Several: the step's outcome, then a section per target, each with a share of the room. */
export function renderStepComment(
  outcomes: readonly RunOutcome[],
  context: { headSha?: string; runUrl?: string },
): string {
  const [only] = outcomes;
  if (outcomes.length === 1 && only) {
    return [renderComment(only, context), ...reportedLine(context.headSha)].join('\n');
  }
  const passed = outcomes.filter((outcome) => outcome.success).length;
  const head = [stepMarker(outcomes), `## ${passed} of ${outcomes.length} targets passed`, ''];
  const share = Math.floor((COMMENT_MAX_CHARS - head.join('\n').length - STEP_FRAME_CHARS) / outcomes.length);
  const sections = outcomes.map((outcome) =>
    renderComment(outcome, { ...context, maxChars: share, marker: '' }),
  );
  return [...head, ...sections, ...reportedLine(context.headSha)].join('\n');
}

/** Room kept for the separators between sections. */
const STEP_FRAME_CHARS = 1_000;
