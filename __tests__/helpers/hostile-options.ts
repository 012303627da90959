/** `options` inputs that once hung or crashed the step: for the tests of its bounds, and the bench. */

/** Nine levels of nine aliases each: 459 bytes of YAML that expand to 9^9 values. */
export const ALIAS_BOMB = [
  'lol: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
  ...'bcdefghi'.split('').map((name, index) => {
    const previous = 'abcdefghi'[index];
    return `${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`;
  }),
  'variableOverrides: {A: {value: {bomb: *i}}}',
].join('\n');

/** Lists nested `depth` deep in a structured override, as JSON or as YAML's flow style. */
export function deeplyNested(depth: number, format: 'json' | 'yaml'): string {
  const value = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  return format === 'json'
    ? `{"variableOverrides": {"A": {"value": ${value}}}}`
    : `variableOverrides: {A: {value: ${value}}}`;
}
