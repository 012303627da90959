import { junitXml } from '../../src/report/junit.js';
import type { RunOutcome } from '../../src/report/outcome.js';
import type { TestCaseResult } from '../../src/service/run-driver.js';
import { decodeEntities } from '../helpers/html.js';
import { HOSTILE_TITLES, makeOutcome, threeTargets } from './helpers.js';

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Element[];
}

/**
 * A minimal XML reader for the shape junit.ts writes (elements, attributes, whitespace between):
 * it throws on anything not well-formed, such as an unbalanced tag, a raw `<` or `&`, or a
 * character XML 1.0 cannot carry.
 */
function parseXml(xml: string): Element {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  if (!xml.startsWith(declaration)) throw new Error('no XML declaration');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
  const notXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
  if (notXml.test(xml)) throw new Error('character not allowed');
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(xml))
    throw new Error('lone surrogate');
  const tag =
    /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<&]*(?:&(?:amp|lt|gt|quot|apos);[^"<&]*)*")*)\s*(\/?)>/y;
  const attribute = /([\w-]+)="([^"]*)"/g;
  const root: Element = { name: '#document', attributes: {}, children: [] };
  const stack: Element[] = [root];
  let index = declaration.length;
  while (index < xml.length) {
    const space = /\s*/y;
    space.lastIndex = index;
    space.exec(xml);
    index = space.lastIndex;
    if (index >= xml.length) break;
    tag.lastIndex = index;
    const match = tag.exec(xml);
    if (!match) throw new Error(`not well-formed at ${index}: ${xml.slice(index, index + 60)}`);
    index = tag.lastIndex;
    const [, closing, name, attributeText, selfClosing] = match as unknown as string[];
    const parent = stack[stack.length - 1] as Element;
    if (closing) {
      if (parent.name !== name || attributeText || selfClosing) throw new Error(`unbalanced </${name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of (attributeText as string).matchAll(attribute)) {
      if (key === undefined || value === undefined || key in attributes) throw new Error('bad attribute');
      attributes[key] = decodeEntities(value);
    }
    const element: Element = { name: name as string, attributes, children: [] };
    parent.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1 || root.children.length !== 1) throw new Error('unbalanced document');
  return root.children[0] as Element;
}

function all(element: Element, name: string): Element[] {
  const found = element.name === name ? [element] : [];
  return found.concat(...element.children.map((child) => all(child, name)));
}

const mixed: TestCaseResult[] = [
  { title: 'passes', status: 'PASSED', durationMs: 1234 },
  { title: 'flaky one', status: 'FLAKY', durationMs: 5 },
  { title: 'skipped one', status: 'SKIPPED' },
  { title: 'fails', status: 'FAILED', durationMs: 2000 },
  { title: 'times out', status: 'TIMEDOUT' },
  { title: 'interrupted', status: 'INTERRUPTED' },
  { title: 'errors', status: 'ERROR' },
  { title: 'cancelled', status: 'CANCELLED' },
  { title: 'queued', status: 'QUEUED' },
  { title: 'no status' },
];

describe('the test XML reader', () => {
  it.each(['<a><b></a></b>', '<a x="&"/>', '<a>text</a>', '<a x="1" x="2"/>', '<a/><b/>', '<a x="\u0001"/>'])(
    'rejects %j',
    (body) => {
      expect(() => parseXml(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`)).toThrow();
    },
  );
});

describe('junitXml', () => {
  it('declares counts that match the elements', () => {
    const suites = parseXml(junitXml([makeOutcome(mixed)]));
    const [suite] = suites.children;
    expect(suite?.name).toBe('testsuite');
    const testCases = all(suites, 'testcase');
    expect(testCases).toHaveLength(10);
    for (const element of [suites, suite as Element]) {
      expect(element.attributes).toMatchObject({
        tests: String(testCases.length),
        failures: String(all(suites, 'failure').length),
        errors: String(all(suites, 'error').length),
        skipped: String(all(suites, 'skipped').length),
        time: '184.000',
      });
    }
    expect(all(suites, 'failure')).toHaveLength(6);
    expect(all(suites, 'error')).toHaveLength(1);
    expect(all(suites, 'skipped')).toHaveLength(1);
  });

  it('maps each verdict as the contract says', () => {
    const suites = parseXml(junitXml([makeOutcome(mixed)]));
    const byName = new Map(all(suites, 'testcase').map((element) => [element.attributes.name, element]));
    expect(byName.get('passes')).toEqual({
      name: 'testcase',
      attributes: { name: 'passes', classname: 'project proj-1', time: '1.234' },
      children: [],
    });
    expect(byName.get('flaky one')?.children).toEqual([
      {
        name: 'properties',
        attributes: {},
        children: [{ name: 'property', attributes: { name: 'flaky', value: 'true' }, children: [] }],
      },
    ]);
    expect(byName.get('skipped one')?.children.map((child) => child.name)).toEqual(['skipped']);
    expect(byName.get('skipped one')?.attributes.time).toBe('0');
    expect(byName.get('fails')?.children[0]?.attributes).toEqual({ message: 'FAILED', type: 'FAILED' });
    expect(byName.get('times out')?.children[0]?.attributes).toEqual({
      message: 'TIMEDOUT',
      type: 'TIMEDOUT',
    });
    expect(byName.get('errors')?.children[0]).toMatchObject({
      name: 'error',
      attributes: { message: 'ERROR' },
    });
    expect(byName.get('cancelled')?.children[0]?.attributes.message).toBe('did not finish (CANCELLED)');
    expect(byName.get('no status')?.children[0]?.attributes.message).toBe('did not finish (no status)');
  });

  it('names the suite of a suite run and records the run in properties', () => {
    const xml = junitXml([
      makeOutcome(mixed, { mode: 'suite', testSuiteName: 'Checkout & pay', message: 'a\nb' }),
    ]);
    const suites = parseXml(xml);
    expect(suites.attributes.name).toBe('Checkout & pay');
    expect(all(suites, 'testcase')[0]?.attributes.classname).toBe('Checkout & pay');
    const properties = Object.fromEntries(
      (suites.children[0]?.children[0]?.children ?? []).map((p) => [p.attributes.name, p.attributes.value]),
    );
    expect(properties).toEqual({
      runId: 'run-1',
      status: 'FAILED',
      branch: 'main',
      environment: 'staging',
      message: 'a b',
    });
  });

  it('stays well-formed with hostile titles, on one line, whole', () => {
    const testCases = HOSTILE_TITLES.map((title, i) => ({ title, status: i % 2 ? 'FAILED' : 'PASSED' }));
    const xml = junitXml([makeOutcome(testCases)]);
    const names = all(parseXml(xml), 'testcase').map((element) => element.attributes.name);
    expect(names).toHaveLength(HOSTILE_TITLES.length);
    expect(names).toContain('<script>alert(1)</script>');
    expect(names).toContain('line one line two <b>after a blank line</b>');
    expect(names).toContain('nul<U+0000> bell<U+0007> esc<U+001B>[31m del<U+007F> nel<U+0085> csi<U+009B>');
    expect(names).toContain('lone \ufffd surrogate');
    expect(names).toContain(`${'x'.repeat(298)}<>`);
    expect(names).toContain('(untitled)');
    for (const line of xml.split('\n')) expect(line.match(/<testcase /g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});

describe('junitXml of several targets', () => {
  it('has a testsuite per target, named for it, and the totals on testsuites', () => {
    // The second target's test cases are `mixed`: 10, of which 1 passed, 1 flaky, 1 skipped and 7 failed, one an ERROR.
    const [passed, , errored] = threeTargets();
    const suite = makeOutcome(mixed, {
      mode: 'suite',
      testSuiteId: 'suite-2',
      testSuiteName: 'Checkout',
      runId: 'run-2',
    });
    const outcomes = [passed as RunOutcome, suite, errored as RunOutcome].map((outcome) => ({
      ...outcome,
      durationMs: undefined,
    }));
    const suites = parseXml(junitXml(outcomes));
    const suiteElements = suites.children.filter((child) => child.name === 'testsuite');
    expect(suiteElements.map((suite) => suite.attributes.name)).toEqual([
      'project proj-1',
      'Checkout (suite suite-2)',
      'project proj-3',
    ]);
    expect(suiteElements.map((suite) => all(suite, 'testcase').length)).toEqual([3, 10, 0]);
    for (const suite of suiteElements) {
      const classNames = new Set(all(suite, 'testcase').map((testCase) => testCase.attributes.classname));
      expect([...classNames].every((name) => name === suite.attributes.name)).toBe(true);
    }
    expect(suiteElements[1]?.attributes).toMatchObject({
      tests: '10',
      failures: '6',
      errors: '1',
      skipped: '1',
    });
    expect(suites.attributes).toEqual({
      name: '3 test runs',
      tests: '13',
      failures: '6',
      errors: '1',
      skipped: '1',
      // The longest: the runs ran together. Without the runs' durations, each suite's is its test cases'.
      time: '3.239',
    });
    const runIds = suiteElements.map(
      (suite) =>
        all(suite, 'property').find((property) => property.attributes.name === 'runId')?.attributes.value,
    );
    expect(runIds).toEqual(['run-1', 'run-2', undefined]);
    expect(suiteElements.map((suite) => suite.attributes.time)).toEqual(['3.003', '3.239', '0']);
  });
});
