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
  /** Those of them in the host: each must expand to one DNS label, so no value chooses the host. */
  inHost: ReadonlySet<Placeholder>;
  /** The input's name, for the warning when a value would change the host. */
  input: string;
}

/** One DNS label: what a placeholder in a template's host may expand to. */
const DNS_LABEL = /^[A-Za-z0-9-]{1,63}$/;

const PLACEHOLDER = /\{([^{}]*)\}/g;

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
      const known = allowed.map((each) => `{${each}}`).join(', ');
      throw new InputError(
        `Input '${name}' uses the unknown placeholder {${placeholder}}; it may use ${known}.`,
      );
    }
    uses.add(placeholder as Placeholder);
  }
  // Each placeholder stands in for itself as a label no URL would hold, to see which are in the host.
  const stand = (placeholder: string) => `placeholder-${placeholder.toLowerCase()}-here`;
  const url = URL.parse(text.replace(PLACEHOLDER, (_, placeholder: string) => stand(placeholder)));
  if (url === null) {
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
  const inHost = new Set([...uses].filter((placeholder) => url.hostname.includes(stand(placeholder))));
  return { text, uses, inHost, input: name };
}

/**
 * The template with each placeholder's value URL-encoded; undefined while a value it uses is
 * unknown; `refused` (why, in words) when a value in the host is not one DNS label.
 */
export function expandUrl(
  template: UrlTemplate | undefined,
  values: Partial<Record<Placeholder, string>>,
): string | undefined | { refused: string } {
  if (template === undefined) return undefined;
  for (const placeholder of template.uses) if (values[placeholder] === undefined) return undefined;
  for (const placeholder of template.inHost) {
    const value = values[placeholder] as string;
    if (DNS_LABEL.test(value)) continue;
    return {
      refused: `No link from '${template.input}': {${placeholder}} is in its host, and '${value}' is not a single DNS label (letters, digits, '-'), so it would choose another host.`,
    };
  }
  return template.text.replace(PLACEHOLDER, (_, placeholder: Placeholder) =>
    encodeURIComponent(values[placeholder] as string),
  );
}
