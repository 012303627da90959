import { cut } from '../runner/text.js';

type Path = readonly PropertyKey[];

/** The fields of a zod issue read here, as zod documents them (`ZodError.issues`). */
export interface Issue {
  readonly code: string;
  readonly path: Path;
  readonly message: string;
  readonly input?: unknown;
  readonly expected?: string;
  /** `unrecognized_keys` */
  readonly keys?: readonly string[];
  /** `invalid_union`: each branch's issues, their paths below the union's. */
  readonly errors?: readonly (readonly Issue[])[];
}

/** Shortened so that a pasted blob cannot flood the log. */
export function shown(value: string): string {
  return `'${cut(value, 80)}'`;
}

/** `hidden`: the kind only (it may be a secret). */
export function describeValue(value: unknown, hidden = false): string {
  if (value === undefined) return 'nothing';
  if (value === null || typeof value !== 'object') {
    if (hidden) return value === null ? 'null' : `a ${typeof value}`;
    return typeof value === 'string' ? `the string ${shown(value)}` : String(value);
  }
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** `options.testMatch.regex`, `results.testCases[2].status` */
export function issuePath(root: string, path: Path): string {
  let text = root;
  for (const key of path)
    text += typeof key === 'number' ? `[${key}]` : text ? `.${String(key)}` : String(key);
  return text || '(the whole body)';
}

/** The issues of a union that failed, from the branch shaped like the input; the union's own when none is. */
function flatten(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union' || !issue.errors) return [issue];
  const shaped = issue.errors.find(
    (branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
  );
  if (!shaped) return [issue];
  return shaped.flatMap((inner) => flatten({ ...inner, path: [...issue.path, ...inner.path] }));
}

export interface ExplainOptions {
  /** `options.testMatch`, `field 'results'` */
  where: (path: Path) => string;
  /** Else only its kind is shown (it may be a secret). */
  showsInput?: (path: Path) => boolean;
  max: number;
}

/**
 * One sentence per problem: where, what it must be (or, for unknown keys, which are allowed: the
 * words `expected` gives, see expectation.ts), what was given. A refinement's own message is kept.
 */
export function explainIssues(
  issues: readonly Issue[],
  expected: (issue: Issue) => string,
  options: ExplainOptions,
): string {
  const flat = issues.flatMap(flatten);
  const sentences = flat.slice(0, options.max).map((issue) => {
    const where = options.where(issue.path);
    if (issue.code === 'unrecognized_keys') return `${where} ${expected(issue)}.`;
    if (issue.code === 'custom') return `${where}: ${issue.message}.`;
    const must = expected(issue);
    if (issue.input === undefined) return `${where} is missing: it must be ${must}.`;
    const hidden = options.showsInput && !options.showsInput(issue.path);
    const given = describeValue(issue.input, hidden);
    const numeric = issue.code === 'invalid_type' && issue.expected === 'number';
    const unquote =
      !hidden && numeric && typeof issue.input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input)
        ? ' (write a number without quotes: no string is read as a number)'
        : '';
    return `${where} must be ${must}; got ${given}${unquote}.`;
  });
  if (flat.length > options.max) sentences.push(`(and ${flat.length - options.max} more problems)`);
  return sentences.join(' ');
}
