import type { LoadOptions } from 'js-yaml';
import { describeValue } from '../service/validation.js';
import { InputError } from './input-error.js';

/**
 * Reading the `options` input's text into a value, within fixed bounds: whatever a workflow puts
 * there, the step answers in milliseconds with a value or an input error naming `options`, never
 * a stack overflow, a hang or gigabytes of memory.
 */

/** Deeper than this is an error; the options' own shape is four levels deep. */
const MAX_OPTIONS_DEPTH = 32;
/** Values in the options once YAML aliases are expanded: the bound of a YAML "billion laughs". */
const MAX_OPTIONS_VALUES = 10_000;

/** A plain JSON object: not null, not a list. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const tooDeep = () =>
  new InputError(
    `Input 'options' nests deeper than ${MAX_OPTIONS_DEPTH} levels; nothing in the options needs that.`,
  );

/**
 * Walks the parsed value with the bounds: depth, values counted each time an alias is used, and no
 * value inside itself (a YAML alias within its own anchor makes a cycle).
 */
function checkBounds(root: unknown): void {
  let values = 0;
  const ancestors = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (++values > MAX_OPTIONS_VALUES) {
      throw new InputError(
        `Input 'options' holds more than ${MAX_OPTIONS_VALUES.toLocaleString('en-US')} values (each use of a YAML alias counts its whole value again).`,
      );
    }
    if (typeof value !== 'object' || value === null) return;
    if (depth > MAX_OPTIONS_DEPTH) throw tooDeep();
    if (ancestors.has(value)) {
      throw new InputError("Input 'options' refers to itself: a YAML alias is used inside its own anchor.");
    }
    ancestors.add(value);
    for (const child of Object.values(value)) visit(child, depth + 1);
    ancestors.delete(value);
  };
  visit(root, 1);
}

/**
 * The object the `options` text holds, within the bounds above. JSON is read as the YAML it also
 * is: one parser, so a key given twice is refused in both, as YAML requires.
 */
export async function parseOptionsText(text: string): Promise<Record<string, unknown>> {
  // Loaded only for options: project runs never pay for it. The core schema reads YAML 1.2's plain
  // types only: no dates or binary, which the options have no place for.
  const yaml = await import(/* webpackMode: "eager" */ 'js-yaml');
  let value: unknown;
  try {
    // js-yaml bounds the nesting it reads (a recursive parser) since 4.3, which its types do not
    // know yet.
    const options: LoadOptions & { maxDepth: number } = {
      schema: yaml.CORE_SCHEMA,
      maxDepth: MAX_OPTIONS_DEPTH,
    };
    value = yaml.load(text, options);
  } catch (error) {
    if (!(error instanceof yaml.YAMLException)) throw error;
    if (error.reason.startsWith('nesting exceeded maxDepth')) throw tooDeep();
    throw new InputError(
      `Input 'options' must be a JSON or YAML object; it does not parse: ${error.reason} at line ${error.mark.line + 1}, column ${error.mark.column + 1}.`,
    );
  }
  checkBounds(value);
  if (isRecord(value)) return value;
  const given = value === null || value === undefined ? 'null (an empty document)' : describeValue(value);
  throw new InputError(`Input 'options' must be a JSON or YAML object; got ${given}.`);
}
