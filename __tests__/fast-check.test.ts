import { isProjectRun, isProjectRunStart } from '../src/service/fast-check.js';
import { projectRunSchema, projectRunStartSchema } from '../src/service/schemas.js';
import { RUN_STATUSES, TEST_CASE_STATUSES } from '../src/service/statuses.js';

const finished = {
  status: 'FAILED',
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:01:00Z',
  branchName: 'main',
  results: { testCases: [{ title: 'a', status: 'PASSED', durationMs: 5 }] },
};

function withCase(testCase: unknown) {
  return { ...finished, results: { testCases: [testCase] } };
}

const valid: [string, unknown][] = [
  ...RUN_STATUSES.map((status): [string, unknown] => [`run status ${status}`, { status }]),
  ...TEST_CASE_STATUSES.map((status): [string, unknown] => [
    `case status ${status}`,
    withCase({ title: 't', status }),
  ]),
  ['queued, startedAt null', { status: 'QUEUED', startedAt: null }],
  ['running', { status: 'RUNNING', startedAt: '2026-01-01T00:00:00Z', branchName: 'main' }],
  ['finished with results', finished],
  ['results null', { ...finished, results: null }],
  ['no test cases', { ...finished, results: { testCases: [] } }],
  ['durationMs null', withCase({ title: 't', status: 'PASSED', durationMs: null })],
  ['durationMs 0', withCase({ title: 't', status: 'PASSED', durationMs: 0 })],
  [
    'extra fields everywhere',
    { ...finished, url: 'x', results: { testCases: [{ title: 't', status: 'FLAKY', x: 1 }], y: 2 } },
  ],
];

const invalid: [string, unknown][] = [
  ['null', null],
  ['a list', []],
  ['a string', 'PASSED'],
  ['no status', { startedAt: null }],
  ['unknown status', { status: 'DONE' }],
  ['status in lower case', { status: 'passed' }],
  ['status a number', { status: 1 }],
  ['startedAt a number', { status: 'RUNNING', startedAt: 5 }],
  ['finishedAt an object', { ...finished, finishedAt: {} }],
  ['branchName a boolean', { ...finished, branchName: true }],
  ['results a list', { ...finished, results: [] }],
  ['results without testCases', { ...finished, results: {} }],
  ['testCases an object', { ...finished, results: { testCases: {} } }],
  ['a test case null', withCase(null)],
  ['a test case a list', withCase([])],
  ['a test case without title', withCase({ status: 'PASSED' })],
  ['a title a number', withCase({ title: 1, status: 'PASSED' })],
  ['a test case without status', withCase({ title: 't' })],
  ['an unknown test case status', withCase({ title: 't', status: 'BLOCKED' })],
  ['durationMs a string', withCase({ title: 't', status: 'PASSED', durationMs: '5' })],
  ['durationMs negative', withCase({ title: 't', status: 'PASSED', durationMs: -1 })],
  [
    'the last of many test cases broken',
    {
      ...finished,
      results: { testCases: [...Array(50).fill({ title: 't', status: 'PASSED' }), { title: 't' }] },
    },
  ],
];

describe('the fast check of a project run accepts exactly what projectRunSchema accepts', () => {
  test.each(valid)('accepted: %s', (_name, body) => {
    expect(projectRunSchema.safeParse(body).success).toBe(true);
    expect(isProjectRun(body)).toBe(true);
  });

  test.each(invalid)('rejected: %s', (_name, body) => {
    expect(projectRunSchema.safeParse(body).success).toBe(false);
    expect(isProjectRun(body)).toBe(false);
  });
});

describe('the fast check of a start answer accepts exactly what projectRunStartSchema accepts', () => {
  test.each([
    [{ runId: 'run-1' }, true],
    [{ runId: 'run-1', extra: 1 }, true],
    [{ runId: '' }, false],
    [{ runId: 5 }, false],
    [{}, false],
    [null, false],
    [['run-1'], false],
    ['run-1', false],
  ])('%p: %p', (body, accepted) => {
    expect(projectRunStartSchema.safeParse(body).success).toBe(accepted);
    expect(isProjectRunStart(body)).toBe(accepted);
  });
});
