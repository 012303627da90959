import { isLoopbackHost } from '../service/loopback.js';
import { shown } from '../service/validation.js';
import { InputError } from './input-error.js';

/** What a link to the service's page for a run may name. */
export const RUN_PLACEHOLDERS = ['projectId', 'runId', 'testSuiteId'] as const;
/** What a link to the service's page for one test case may name besides. */
export const TEST_PLACEHOLDERS = [...RUN_PLACEHOLDERS, 'testRunId', 'testId'] as const;
export type Placeholder = (typeof TEST_PLACEHOLDERS)[number];

/** A URL with `{placeholders}`, checked as an input: each value is URL-encoded when expanded. */
export interface UrlTemplate {
  text: string;
  /** The placeholders it uses. */
  uses: ReadonlySet<Placeholder>;
}

const PLACEHOLDER = /\{([^{}]*)\}/g;

const list = (names: readonly string[]) => names.map((name) => `{${name}}`).join(', ');

/**
 * The template an input holds, or undefined when it is empty: only `allowed` placeholders, and
 * once they are filled in, an https:// URL (or http:// on a loopback host) without credentials.
 */
export function parseUrlTemplate(
  name: string,
  text: string,
  allowed: readonly Placeholder[],
): UrlTemplate | undefined {
  if (text === '') return undefined;
  const uses = new Set<Placeholder>();
  for (const [, placeholder] of text.matchAll(PLACEHOLDER)) {
    if (!(allowed as readonly string[]).includes(placeholder as string)) {
      throw new InputError(
        `Input '${name}' uses the unknown placeholder {${placeholder}}; it may use ${list(allowed)}.`,
      );
    }
    uses.add(placeholder as Placeholder);
  }
  let url: URL;
  try {
    url = new URL(text.replace(PLACEHOLDER, 'x'));
  } catch {
    throw new InputError(
      `Input '${name}' must be a URL such as https://tests.example.com/runs/{runId}; got ${shown(text)}.`,
    );
  }
  if (url.username || url.password) throw new InputError(`Input '${name}' must not carry credentials.`);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new InputError(
      `Input '${name}' must be an https:// URL (http:// only on localhost, 127.0.0.0/8 and [::1]); got ${shown(text)}.`,
    );
  }
  return { text, uses };
}

/** The template with each placeholder's value URL-encoded; undefined while a value it uses is unknown. */
export function expandUrl(
  template: UrlTemplate | undefined,
  values: Partial<Record<Placeholder, string>>,
): string | undefined {
  if (template === undefined) return undefined;
  for (const placeholder of template.uses) if (values[placeholder] === undefined) return undefined;
  return template.text.replace(PLACEHOLDER, (_, placeholder: Placeholder) =>
    encodeURIComponent(values[placeholder] as string),
  );
}
