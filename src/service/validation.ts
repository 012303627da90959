import * as z from 'zod/mini';

/**
 * Sentences for validation problems, from zod's issues and the schema itself: what a field must
 * be is read off the schema (its type, bounds, values, fields), never written a second time.
 */

type Schema = z.core.$ZodType;
type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** Shows a value in an error message, shortened so a pasted blob cannot flood the log. */
export function shown(value: string): string {
  const short = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  return `'${short}'`;
}

/** What was given, for a message: short values as they are, others by their kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `the string ${shown(value)}`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** What kind of value was given, never the value itself: for places that may hold a secret. */
function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  const type = typeof value;
  return type === 'object' ? 'an object' : type === 'undefined' ? 'nothing' : `a ${type}`;
}

/** `options.testMatch.regex`, `results.testCases[2].status` */
export function issuePath(root: string, path: Path): string {
  let text = root;
  for (const key of path)
    text += typeof key === 'number' ? `[${key}]` : text ? `.${String(key)}` : String(key);
  return text || '(the whole body)';
}

function def(schema: Schema): z.core.$ZodTypeDef & Record<string, unknown> {
  return schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
}

/** The schema without its optional and nullable wrappers. */
function unwrap(schema: Schema): Schema {
  let current = schema;
  while (def(current).type === 'optional' || def(current).type === 'nullable') {
    current = def(current).innerType as Schema;
  }
  return current;
}

function shapeOf(schema: Schema): Record<string, Schema> | undefined {
  const inner = unwrap(schema);
  return def(inner).type === 'object' ? (def(inner).shape as Record<string, Schema>) : undefined;
}

/** The fields of an object schema, or of the object branch of a union. */
function objectShape(schema: Schema): Record<string, Schema> | undefined {
  const inner = unwrap(schema);
  if (def(inner).type !== 'union') return shapeOf(inner);
  return (def(inner).options as Schema[]).map(shapeOf).find((shape) => shape !== undefined);
}

/** The part of `schema` that validates the value at `path`. */
function schemaAt(schema: Schema, path: Path): Schema | undefined {
  let current: Schema | undefined = schema;
  for (const key of path) {
    if (current === undefined) return undefined;
    const inner = unwrap(current);
    const kind = def(inner).type;
    if (kind === 'union') {
      // the branch that has this key: a union of a string and an object, say
      const branch = (def(inner).options as Schema[]).find((option) => shapeOf(option)?.[String(key)]);
      current = branch && shapeOf(branch)?.[String(key)];
    } else if (kind === 'object') current = shapeOf(inner)?.[String(key)];
    else if (kind === 'array') current = def(inner).element as Schema;
    else if (kind === 'record') current = def(inner).valueType as Schema;
    else return undefined;
  }
  return current;
}

function bounds(schema: Schema): { min?: number; max?: number } {
  const result: { min?: number; max?: number } = {};
  for (const check of def(schema).checks ?? []) {
    const { check: kind, value } = check._zod.def as { check: string; value?: unknown };
    if (kind === 'greater_than' && typeof value === 'number') result.min = value;
    if (kind === 'less_than' && typeof value === 'number') result.max = value;
  }
  return result;
}

function isAnyObject(schema: Schema): boolean {
  const inner = unwrap(schema);
  return def(inner).type === 'record' && def(unwrap(def(inner).valueType as Schema)).type === 'unknown';
}

/** A type in a few characters, for inside braces: `string`, `integer`, `{glob?: string}`. */
function short(schema: Schema, depth: number): string {
  const inner = unwrap(schema);
  const d = def(inner);
  switch (d.type) {
    case 'number':
      return d.format === 'safeint' ? 'integer' : 'number';
    case 'enum':
      return Object.values(d.entries as Record<string, string>).join(' | ');
    case 'array':
      return `${short(d.element as Schema, depth)}[]`;
    case 'union':
      return (d.options as Schema[]).map((option) => short(option, depth)).join(' | ');
    case 'record':
      return '{...}';
    case 'pipe':
      return z.globalRegistry.get(inner)?.description ?? short(d.in as Schema, depth);
    case 'object': {
      if (depth > 1) return '{...}';
      const fields = Object.entries(d.shape as Record<string, Schema>).map(
        ([key, field]) => `${key}${def(field).type === 'optional' ? '?' : ''}: ${short(field, depth + 1)}`,
      );
      return `{${fields.join(', ')}}`;
    }
    default:
      return d.type;
  }
}

function alternatives(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * What a value must be, in words: `an integer from 0 to 128`, `one of PROJECT, SUITE, DISABLED`,
 * and what it is when the schema says (`z.describe`): `a number, 0 or more (milliseconds)`.
 */
export function expectation(schema: Schema): string {
  const inner = unwrap(schema);
  const description = z.globalRegistry.get(inner)?.description;
  const words = kindInWords(inner);
  return description ? `${words} (${description})` : words;
}

function kindInWords(inner: Schema): string {
  const d = def(inner);
  switch (d.type) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'number': {
      const noun = d.format === 'safeint' ? 'an integer' : 'a number';
      const { min, max } = bounds(inner);
      if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
      if (min !== undefined) return `${noun}, ${min} or more`;
      return max !== undefined ? `${noun}, ${max} or less` : noun;
    }
    case 'enum':
      return `one of ${Object.values(d.entries as Record<string, string>).join(', ')}`;
    case 'object':
      return `an object ${short(inner, 0)}`;
    case 'array':
      return `a list of ${short(d.element as Schema, 0)}`;
    case 'record':
      return isAnyObject(inner)
        ? 'an object'
        : `an object that maps names to ${expectation(d.valueType as Schema)}`;
    case 'union':
      return alternatives((d.options as Schema[]).map(expectation));
    case 'unknown':
      return 'anything';
    default:
      return `a ${d.type}`;
  }
}

/** `'number_of_workers'` or `'NumberOfWorkers'` -> `'numberOfWorkers'` */
function closeKey(key: string, allowed: readonly string[]): string | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return allowed.find((candidate) => squash(candidate) === squash(key));
}

/** The issues of a union that failed, from the branch shaped like the input; the union's own when none is. */
function flatten(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const shaped = issue.errors.find(
    (branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
  );
  if (!shaped) return [issue];
  return shaped.flatMap((inner) => flatten({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

interface ExplainOptions {
  /** Names the value at a path: `options.testMatch`, `field 'results'`. */
  where: (path: Path) => string;
  /** Whether the value given at a path may be shown; else only its kind (it may be a secret). */
  showsInput?: (path: Path) => boolean;
  /** At most this many problems are listed; then how many more there are. */
  max: number;
}

/** One sentence per problem: where, what it must be (from the schema), and what was given. */
export function explainIssues(schema: Schema, issues: readonly Issue[], options: ExplainOptions): string[] {
  const flat = issues.flatMap(flatten);
  const sentences = flat.slice(0, options.max).map((issue) => {
    const where = options.where(issue.path);
    const here = schemaAt(schema, issue.path);
    if (issue.code === 'unrecognized_keys') {
      const allowed = Object.keys((here && objectShape(here)) ?? {});
      const keys = issue.keys.map((key) => {
        const close = closeKey(key, allowed);
        return close === undefined ? `'${key}'` : `'${key}' (did you mean '${close}'?)`;
      });
      return `${where} has unknown key ${keys.join(', ')}; allowed keys: ${allowed.join(', ')}.`;
    }
    if (issue.code === 'custom' || here === undefined) return `${where}: ${issue.message}.`;
    const expected = expectation(here);
    if (issue.input === undefined) return `${where} is missing: it must be ${expected}.`;
    const hidden = options.showsInput && !options.showsInput(issue.path);
    const given = hidden ? describeType(issue.input) : describeValue(issue.input);
    const unquote =
      !hidden &&
      def(unwrap(here)).type === 'number' &&
      typeof issue.input === 'string' &&
      /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input)
        ? ' (write a number without quotes: no string is read as a number)'
        : '';
    return `${where} must be ${expected}; got ${given}${unquote}.`;
  });
  if (flat.length > options.max) sentences.push(`(and ${flat.length - options.max} more problems)`);
  return sentences;
}
