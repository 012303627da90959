import type { LoadOptions } from 'js-yaml';
import { describeValue } from '../service/validation.js';
import { InputError } from './input-error.js';

// Bounds: whatever a workflow puts in `options`, the step answers in milliseconds, never with a stack
// overflow, a hang or gigabytes of memory. The options' own shape is four levels deep.
const MAX_OPTIONS_DEPTH = 32;
/** Values in the options once YAML aliases are expanded: the bound of a YAML "billion laughs". */
const MAX_OPTIONS_VALUES = 10_000;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const tooDeep = () =>
  new InputError(
    `Input 'options' nests deeper than ${MAX_OPTIONS_DEPTH} levels; nothing in the options needs that.`,
  );

/** Values are counted each time an alias is used; a YAML alias within its own anchor makes a cycle. */
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

/** JSON is read as the YAML it also is: one parser, so a key given twice is refused in both. */
export async function parseOptionsText(text: string): Promise<Record<string, unknown>> {
  // Its own chunk, loaded only for options: a project run does not even parse it (about 1 ms of its
  // start). The core schema reads YAML 1.2's plain types only: no dates or binary.
  const yaml = await import('js-yaml');
  let value: unknown;
  try {
    // js-yaml bounds the nesting its recursive parser reads since 4.3; its types do not know it yet.
    value = yaml.load(text, { schema: yaml.CORE_SCHEMA, maxDepth: MAX_OPTIONS_DEPTH } as LoadOptions);
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
