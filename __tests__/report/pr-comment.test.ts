import { COMMENT_MAX_CHARS, renderComment, stepMarker } from '../../src/report/pr-comment.js';

const commentMarker = (outcome: Parameters<typeof stepMarker>[0][number]) => stepMarker([outcome]);

import { clearSecrets, registerSecret } from '../../src/runner/secrets.js';
import { renderedLinks, visibleLines } from '../helpers/gfm.js';
import { decodeEntities } from '../helpers/html.js';
import { cases, makeOutcome } from './helpers.js';

const CONTEXT = {
  headSha: '0123456789abcdef0123',
  runUrl: 'https://github.com/octo/shop/actions/runs/42/attempts/2',
};

afterEach(() => clearSecrets());

describe('the pull request comment', () => {
  test('names its target in a hidden marker: mode, id, Playwright project, environment', () => {
    expect(commentMarker(makeOutcome([]))).toBe(
      '<!-- test-run-action mode=project project=proj-1 environment=staging -->',
    );
    expect(
      commentMarker(makeOutcome([], { playwrightProjectName: 'mobile safari', environment: undefined })),
    ).toBe('<!-- test-run-action mode=project project=proj-1 playwright=mobile%20safari -->');
    expect(
      commentMarker(
        makeOutcome([], {
          mode: 'suite',
          testSuiteId: 'checkout',
          projectId: undefined,
          environment: 'STAGING',
        }),
      ),
    ).toBe('<!-- test-run-action mode=suite suite=checkout environment=STAGING -->');
    // a value cannot close the HTML comment early
    expect(commentMarker(makeOutcome([], { projectId: 'a --> b' }))).toContain('project=a%20--%3E%20b');
  });

  test('tells the outcome, what ran, the commit, the workflow run, the counts, failing then flaky cases', () => {
    const outcome = makeOutcome(
      [
        { title: 'login', status: 'PASSED' },
        { title: 'search', status: 'FLAKY' },
        { title: 'payment', status: 'TIMEDOUT' },
        { title: 'checkout', status: 'FAILED' },
      ],
      { playwrightProjectName: 'chromium' },
    );
    const body = renderComment(outcome, CONTEXT);
    const lines = body.split('\n');
    expect(lines[0]).toBe(commentMarker(outcome));
    expect(lines[1]).toBe('### ❌ Test run failed');
    expect(body).toContain(
      'Project <code>proj-1</code> · Playwright project <code>chromium</code> · Run <code>run-1</code> · Branch <code>main</code> · Environment <code>staging</code> · Duration 3 min 4 s',
    );
    expect(body).toContain(
      'Commit <code>0123456</code> · <a href="https://github.com/octo/shop/actions/runs/42/attempts/2">workflow run</a>',
    );
    expect(body).toContain('**4 test cases: 1 passed, 2 failed, 1 flaky, 0 skipped**');
    const listedLines = lines.filter((line) => line.startsWith('- '));
    expect(listedLines).toEqual(['- ❌ FAILED · checkout', '- ⏱️ TIMEDOUT · payment', '- ⚠️ FLAKY · search']);
    expect(body.indexOf('**Failed**')).toBeLessThan(body.indexOf('**Flaky**'));
  });

  test('a passing run: no failure message, no lists', () => {
    const body = renderComment(makeOutcome(cases(3, 'PASSED')), CONTEXT);
    expect(body).toContain('### ✅ Test run passed');
    expect(body).not.toMatch(/^- /m);
    expect(body).not.toContain('Failed');
  });

  test('titles cannot mention anyone, link an issue or inject markup', () => {
    const hostile = [
      '@octocat fixes #12',
      'see acme/shop#34 and GH-5',
      'ping @acme/reviewers',
      '<b>bold</b> | pipe `code` [link](https://example.com)',
      'regression of https://github.com/acme/shop/issues/56 and HTTP://GITHUB.COM/acme/shop/pull/78',
      'see www.github.com/acme/shop/issues/90',
    ];
    const body = renderComment(makeOutcome(hostile.map((title) => ({ title, status: 'FAILED' }))), CONTEXT);
    // What GitHub's mention and reference finders read: the text, entities decoded.
    const shown = decodeEntities(body);
    for (const pattern of [/@octocat/, /@acme\/reviewers/, /(^|[^\w])#12\b/, /acme\/shop#34/, /GH-5/]) {
      expect([pattern, pattern.test(shown)]).toEqual([pattern, false]);
    }
    // GitHub links a URL (and records a cross-reference for an issue's URL): each is in a code span.
    const titles = shown.split('\n').filter((line) => line.startsWith('- '));
    const outsideCode = titles.map((line) => line.replace(/(`+)[^`]*?\1/g, ''));
    for (const pattern of [/:\/\//i, /www\./i]) {
      expect([pattern, outsideCode.filter((line) => pattern.test(line))]).toEqual([pattern, []]);
    }
    expect(renderedLinks(body).map((link) => link.href)).toEqual([CONTEXT.runUrl]);
    // What the Markdown and HTML renderer reads: the titles' own tags and backticks escaped.
    expect(body).not.toMatch(/<b>/);
    expect(body).toContain('&#96;code&#96;');
    const rendered = visibleLines(body).join('\n');
    // what a reader sees, zero-width spaces aside, is the title; a URL copies as written
    expect(rendered.replace(/\u200B/g, '')).toContain('@octocat fixes #12');
    expect(rendered).toContain(
      'regression of https://github.com/acme/shop/issues/56 and HTTP://GITHUB.COM/acme/shop/pull/78',
    );
    expect(rendered).toContain('<b>bold</b> | pipe `code` [link](https://example.com)');
    expect(rendered).toContain('see www.github.com/acme/shop/issues/90');
  });

  test("the failure message's link to the service's page copies without a zero-width space", () => {
    const url = 'https://app.tests.example.com/projects/proj-1/runs/run-1?tab=tests&x=`y`';
    const body = renderComment(
      makeOutcome([{ title: 'checkout', status: 'FAILED' }], {
        message: `Project run run-1 ended FAILED. The service's page for the run: ${url}`,
      }),
      CONTEXT,
    );
    expect(body).not.toContain('&#8203;');
    expect(visibleLines(body)).toContain(
      `Project run run-1 ended FAILED. The service's page for the run: ${url}`,
    );
    expect(renderedLinks(body).map((link) => link.href)).toEqual([CONTEXT.runUrl]);
  });

  test('20,000 failing test cases stay under GitHub’s limit, saying how many more there are', () => {
    const titles = cases(20_000, 'FAILED', `a long title ${'x'.repeat(300)} number`);
    const body = renderComment(makeOutcome(titles), CONTEXT);
    expect(body.length).toBeLessThan(COMMENT_MAX_CHARS);
    expect(body).toMatch(/- … and 19,?970 more/);
  });

  test('secrets are redacted from the body, marker included', () => {
    registerSecret('s3cr3t-key');
    const body = renderComment(
      makeOutcome([{ title: 'login with s3cr3t-key', status: 'FAILED' }], { branch: 'feature/s3cr3t-key' }),
      CONTEXT,
    );
    expect(body).not.toContain('s3cr3t-key');
    expect(body).toContain('login with &#42;&#42;&#42;');
  });
});
