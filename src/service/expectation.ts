import * as z from 'zod/mini';
import type { Issue } from './validation.js';

/**
 * What a value must be, in words, read off the JSON Schema that zod makes of the schema (its
 * documented `z.toJSONSchema`) at the issue's path, and never written a second time: zod's own
 * messages ("Too small: expected number to be >=0") name neither the whole range nor the value
 * given. Kept out of validation.ts, which the inputs import at start, so that zod loads only with
 * the schemas (docs/performance.md).
 */

/** The parts of a JSON Schema read here. */
interface Json {
  type?: string | string[];
  anyOf?: Json[];
  enum?: unknown[];
  properties?: Record<string, Json>;
  required?: string[];
  additionalProperties?: Json | boolean;
  items?: Json;
  minimum?: number;
  maximum?: number;
  description?: string;
}

/** One alternative: of one type, or of any (`z.unknown()`). */
type Branch = Json & { type?: string };

/** The alternatives a value may take, null left out: a nullable field is described by its value. */
function branches(schema: Json): Branch[] {
  if (schema.anyOf) return schema.anyOf.flatMap(branches);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.filter((type) => type !== 'null').map((type) => ({ ...schema, type }));
}

/** A record's values; none for an object with named fields. */
function values(schema: Json): Json | undefined {
  if (schema.properties) return undefined;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
}

/** The schemas a value at `path` is checked against, from every branch that has that path. */
function at(schema: Json, path: readonly PropertyKey[]): Json[] {
  if (path.length === 0) return [schema];
  const [key, ...rest] = path;
  return branches(schema).flatMap((branch) => {
    const { properties } = branch;
    let next: Json | undefined;
    if (branch.type === 'array') next = typeof key === 'number' ? branch.items : undefined;
    else if (properties && Object.hasOwn(properties, String(key))) next = properties[String(key)];
    else next = branch.type === 'object' ? values(branch) : undefined;
    return next ? at(next, rest) : [];
  });
}

/** A type in a few characters, for inside braces: `string`, `integer`, `{glob?: string}`. */
function short(schema: Json, depth: number): string {
  const words = branches(schema).map((branch) => {
    if (branch.enum) return branch.enum.join(' | ');
    if (branch.type === 'array') return `${short(branch.items ?? {}, depth)}[]`;
    if (branch.type !== 'object') return branch.type ?? 'unknown';
    if (!branch.properties || depth > 1) return '{...}';
    const required = new Set(branch.required);
    const fields = Object.entries(branch.properties).map(
      ([key, field]) => `${key}${required.has(key) ? '' : '?'}: ${short(field, depth + 1)}`,
    );
    return `{${fields.join(', ')}}`;
  });
  return words.join(' | ');
}

/** `z.int()` states the safe integers' range as its bounds: no bound the schema's author set. */
const bound = (value: number | undefined) =>
  value === undefined || Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value;

/** `an integer from 0 to 128`, `a number, 0 or more` */
function numberInWords(schema: Branch): string {
  const noun = schema.type === 'integer' ? 'an integer' : 'a number';
  const [min, max] = [bound(schema.minimum), bound(schema.maximum)];
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun}, ${min} or more`;
  return max !== undefined ? `${noun}, ${max} or less` : noun;
}

const WORDS: Readonly<Record<string, string>> = { string: 'a string', boolean: 'true or false' };

function kindInWords(branch: Branch): string {
  if (branch.enum) return `one of ${branch.enum.join(', ')}`;
  if (branch.type === 'integer' || branch.type === 'number') return numberInWords(branch);
  if (branch.type === 'array') return `a list of ${short(branch.items ?? {}, 0)}`;
  if (branch.type !== 'object') return WORDS[branch.type ?? ''] ?? 'anything';
  const record = values(branch);
  if (!record) return `an object ${short(branch, 0)}`;
  const any = Object.keys(record).length === 0;
  return any ? 'an object' : `an object that maps names to ${expectation([record])}`;
}

/** `an integer from 0 to 128`, `one of PROJECT, SUITE`, `a number, 0 or more (milliseconds)` */
function expectation(schemas: Json[]): string {
  const words = schemas.flatMap(branches).map((branch) => {
    const kind = kindInWords(branch);
    return branch.description ? `${kind} (${branch.description})` : kind;
  });
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * For `explainIssues`, the words for an issue of `schema`: what the value must be, or, for unknown
 * keys, which keys are allowed; `explainIssues` adds where and what was given.
 */
export function expectedIn(schema: z.ZodMiniType): (issue: Issue) => string {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Json;
  return (issue) => {
    const found = at(json, issue.path);
    if (issue.code !== 'unrecognized_keys') return expectation(found);
    const allowed = Object.keys(
      found.flatMap(branches).find((branch) => branch.properties)?.properties ?? {},
    );
    // `'number_of_workers'` or `'NumberOfWorkers'` -> `'numberOfWorkers'`
    const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
    const keys = (issue.keys ?? []).map((key) => {
      const close = allowed.find((candidate) => squash(candidate) === squash(key));
      return close === undefined ? `'${key}'` : `'${key}' (did you mean '${close}'?)`;
    });
    return `has unknown key ${keys.join(', ')}; allowed keys: ${allowed.join(', ')}`;
  };
}
