import type * as z from 'zod/mini';
import { cut } from '../runner/text.js';

/**
 * What a field must be is read off the schema's JSON Schema, never written a second time: zod's own
 * messages ("Too small: expected number to be >=0") name neither the whole range nor the value given.
 */

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];
export type Json = z.core.JSONSchema.JSONSchema;

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

/** The alternatives a value may take, null left out: a nullable field is described by its value. */
function branches(schema: Json | boolean | undefined): Json[] {
  if (typeof schema !== 'object') return [];
  if (schema.anyOf) return schema.anyOf.flatMap(branches);
  const types = [schema.type ?? []].flat().filter((type) => type !== 'null');
  if (types.length === 0) return schema.type === undefined ? [schema] : [];
  return types.map((type) => ({ ...schema, type, enum: schema.enum?.filter((value) => value !== null) }));
}

function schemaAt(schema: Json, path: Path): Json | undefined {
  let here: Json | undefined = schema;
  for (const key of path) {
    here = branches(here)
      .map((branch): Json | boolean | undefined =>
        typeof key === 'number'
          ? (branch.items as Json | undefined)
          : Object.hasOwn(branch.properties ?? {}, key)
            ? branch.properties?.[String(key)]
            : branch.additionalProperties,
      )
      .find((next): next is Json => typeof next === 'object');
  }
  return here;
}

/** A type in a few characters, for inside braces: `string`, `integer`, `{glob?: string}`. */
function short(schema: Json | boolean | undefined, depth: number): string {
  const words = branches(schema).map((branch) => {
    if (branch.enum) return branch.enum.join(' | ');
    if (branch.type === 'array') return `${short(branch.items as Json, depth)}[]`;
    if (branch.type !== 'object') return String(branch.type ?? branch.description ?? 'unknown');
    if (!branch.properties || depth > 1) return '{...}';
    const required = new Set(branch.required);
    const fields = Object.entries(branch.properties).map(
      ([key, field]) => `${key}${required.has(key) ? '' : '?'}: ${short(field, depth + 1)}`,
    );
    return `{${fields.join(', ')}}`;
  });
  return words.join(' | ');
}

/** A bound that says something: zod gives every integer the bounds of a safe integer. */
const bound = (value: number | undefined) =>
  value !== undefined && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;

const WORDS: Readonly<Record<string, string>> = { string: 'a string', boolean: 'true or false' };

function kindInWords(branch: Json): string {
  if (branch.enum) return `one of ${branch.enum.join(', ')}`;
  if (branch.type === 'integer' || branch.type === 'number') {
    const noun = branch.type === 'integer' ? 'an integer' : 'a number';
    const [min, max] = [bound(branch.minimum), bound(branch.maximum)];
    if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
    if (min !== undefined) return `${noun}, ${min} or more`;
    return max !== undefined ? `${noun}, ${max} or less` : noun;
  }
  if (branch.type === 'array') return `a list of ${short(branch.items as Json, 0)}`;
  if (branch.type !== 'object') return WORDS[String(branch.type)] ?? 'anything';
  if (branch.properties) return `an object ${short(branch, 0)}`;
  const values = branch.additionalProperties;
  const any = typeof values !== 'object' || Object.keys(values).length === 0;
  return any ? 'an object' : `an object that maps names to ${expectation(values)}`;
}

/** `an integer from 0 to 128`, `one of PROJECT, SUITE`, `a number, 0 or more (milliseconds)` */
function expectation(schema: Json): string {
  const words = branches(schema).map((branch) => {
    const kind = kindInWords(branch);
    return branch.description ? `${kind} (${branch.description})` : kind;
  });
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
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

export interface ExplainOptions {
  /** `options.testMatch`, `field 'results'` */
  where: (path: Path) => string;
  /** Else only its kind is shown (it may be a secret). */
  showsInput?: (path: Path) => boolean;
  max: number;
}

/** One sentence per problem: where, what it must be (read off the schema's JSON Schema), what was given. */
export function explainIssues(json: Json, issues: readonly Issue[], options: ExplainOptions): string {
  const flat = issues.flatMap(flatten);
  const sentences = flat.slice(0, options.max).map((issue) => {
    const where = options.where(issue.path);
    const here = schemaAt(json, issue.path);
    if (issue.code === 'unrecognized_keys') {
      const allowed = Object.keys(branches(here).find((branch) => branch.properties)?.properties ?? {});
      // `'number_of_workers'` or `'NumberOfWorkers'` -> `'numberOfWorkers'`
      const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
      const keys = issue.keys.map((key) => {
        const close = allowed.find((candidate) => squash(candidate) === squash(key));
        return close === undefined ? `'${key}'` : `'${key}' (did you mean '${close}'?)`;
      });
      return `${where} has unknown key ${keys.join(', ')}; allowed keys: ${allowed.join(', ')}.`;
    }
    if (issue.code === 'custom' || here === undefined) return `${where}: ${issue.message}.`;
    const expected = expectation(here);
    if (issue.input === undefined) return `${where} is missing: it must be ${expected}.`;
    const hidden = options.showsInput && !options.showsInput(issue.path);
    const given = describeValue(issue.input, hidden);
    const numeric = branches(here).some((branch) => branch.type === 'number' || branch.type === 'integer');
    const unquote =
      !hidden && numeric && typeof issue.input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input)
        ? ' (write a number without quotes: no string is read as a number)'
        : '';
    return `${where} must be ${expected}; got ${given}${unquote}.`;
  });
  if (flat.length > options.max) sentences.push(`(and ${flat.length - options.max} more problems)`);
  return sentences.join(' ');
}
