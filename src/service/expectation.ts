import * as z from 'zod/mini';

/**
 * What a value must be, in words, read off the schema that raised the issue (zod hands it to the
 * error map) and never written a second time: zod's own messages ("Too small: expected number to be
 * >=0") name neither the whole range nor the value given. Kept out of validation.ts, which the
 * inputs import at start, so that zod loads only with the schemas (docs/performance.md).
 */

type Schema = z.core.$ZodType;

/** The alternatives a value may take, null left out: a nullable field is described by its value. */
function branches(schema: Schema): z.core.$ZodTypes[] {
  const branch = schema as z.core.$ZodTypes;
  const def = branch._zod.def;
  if (def.type === 'optional' || def.type === 'nullable') return branches(def.innerType);
  return def.type === 'union' ? def.options.flatMap(branches) : [branch];
}

/** A type in a few characters, for inside braces: `string`, `integer`, `{glob?: string}`. */
function short(schema: Schema, depth: number): string {
  const words = branches(schema).map(({ _zod: { def } }) => {
    if (def.type === 'enum') return Object.values(def.entries).join(' | ');
    if (def.type === 'array') return `${short(def.element, depth)}[]`;
    if (def.type === 'number') return 'format' in def ? 'integer' : 'number';
    if (def.type !== 'object') return def.type === 'record' ? '{...}' : def.type;
    if (depth > 1) return '{...}';
    const fields = Object.entries(def.shape).map(
      ([key, field]) => `${key}${field._zod.optin === 'optional' ? '?' : ''}: ${short(field, depth + 1)}`,
    );
    return `{${fields.join(', ')}}`;
  });
  return words.join(' | ');
}

/** `an integer from 0 to 128`, `a number, 0 or more` */
function numberInWords(def: z.core.$ZodNumberDef): string {
  const noun = 'format' in def ? 'an integer' : 'a number';
  let [min, max]: unknown[] = [];
  for (const check of def.checks ?? []) {
    const bound = (check as z.core.$ZodChecks)._zod.def;
    if (bound.check === 'greater_than' && bound.inclusive) min = bound.value;
    if (bound.check === 'less_than' && bound.inclusive) max = bound.value;
  }
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun}, ${min} or more`;
  return max !== undefined ? `${noun}, ${max} or less` : noun;
}

const WORDS: Readonly<Record<string, string>> = { string: 'a string', boolean: 'true or false' };

function kindInWords(branch: z.core.$ZodTypes): string {
  const def = branch._zod.def;
  if (def.type === 'enum') return `one of ${Object.values(def.entries).join(', ')}`;
  if (def.type === 'number') return numberInWords(def);
  if (def.type === 'array') return `a list of ${short(def.element, 0)}`;
  if (def.type === 'object') return `an object ${short(branch, 0)}`;
  if (def.type !== 'record') return WORDS[def.type] ?? 'anything';
  const any = def.valueType._zod.def.type === 'unknown';
  return any ? 'an object' : `an object that maps names to ${expectation(def.valueType)}`;
}

/** `an integer from 0 to 128`, `one of PROJECT, SUITE`, `a number, 0 or more (milliseconds)` */
function expectation(schema: Schema): string {
  const words = branches(schema).map((branch) => {
    const kind = kindInWords(branch);
    const description = z.globalRegistry.get(branch)?.description;
    return description ? `${kind} (${description})` : kind;
  });
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/**
 * zod's error map, given the schema that raised each issue: the message is what the value must be,
 * or, for unknown keys, which keys are allowed; `explainIssues` adds where and what was given.
 */
export function expectedInWords(issue: z.core.$ZodRawIssue): string | undefined {
  if (!issue.schema) return undefined;
  if (issue.code !== 'unrecognized_keys') return expectation(issue.schema);
  const def = (issue.schema as z.core.$ZodTypes)._zod.def;
  const allowed = def.type === 'object' ? Object.keys(def.shape) : [];
  // `'number_of_workers'` or `'NumberOfWorkers'` -> `'numberOfWorkers'`
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const keys = issue.keys.map((key) => {
    const close = allowed.find((candidate) => squash(candidate) === squash(key));
    return close === undefined ? `'${key}'` : `'${key}' (did you mean '${close}'?)`;
  });
  return `has unknown key ${keys.join(', ')}; allowed keys: ${allowed.join(', ')}`;
}
