import type { z } from 'zod';

/** Shows a value in an error message, shortened so a pasted blob cannot flood the log. */
export function shown(value: string): string {
  const short = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  return `'${short}'`;
}

/** `options.testMatch.regex`, `results.testCases[2].status` */
export function issuePath(root: string, path: readonly PropertyKey[]): string {
  let text = root;
  for (const key of path)
    text += typeof key === 'number' ? `[${key}]` : text ? `.${String(key)}` : String(key);
  return text || '(the whole body)';
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `the string ${shown(value)}`;
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

/** What kind of value was given, never the value itself: for places that may hold a secret. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  const type = typeof value;
  return type === 'object' ? 'an object' : type === 'undefined' ? 'nothing' : `a ${type}`;
}

/** One issue as a sentence naming the path, the expectation and (unless hidden) what was given. */
function withArticle(noun: string): string {
  if (noun === 'int') return 'an integer';
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

export function describeIssue(issue: z.core.$ZodIssue, where: string, hideInput = false): string {
  const given = hideInput ? '' : `; got ${describeValue(issue.input)}`;
  const missing =
    issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value');
  if (missing) {
    const expected =
      issue.code === 'invalid_type' ? withArticle(issue.expected) : `one of ${issue.values.join(', ')}`;
    return `${where} is missing (expected ${expected})`;
  }
  switch (issue.code) {
    case 'invalid_type':
      return `${where} must be ${withArticle(issue.expected)}${given}`;
    case 'too_small':
      return `${where} must be at least ${issue.minimum}${given}`;
    case 'too_big':
      return `${where} must be at most ${issue.maximum}${given}`;
    case 'invalid_value':
      return `${where} must be one of ${issue.values.join(', ')}${given}`;
    case 'unrecognized_keys':
      return `${where} has unknown key ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
    default:
      return `${where}: ${issue.message}${given}`;
  }
}
