import { isHttpsOrLocal } from '../service/loopback.js';
import { shown } from '../service/validation.js';
import { InputError } from './input-error.js';

export const RUN_PLACEHOLDERS = ['projectId', 'runId', 'testSuiteId'] as const;
export const TEST_PLACEHOLDERS = [...RUN_PLACEHOLDERS, 'testRunId', 'testId'] as const;
type Placeholder = (typeof TEST_PLACEHOLDERS)[number];

const DNS_LABEL = /^[A-Za-z0-9-]{1,63}$/;

const PLACEHOLDER = /\{([^{}]*)\}/g;

export interface UrlTemplate {
  text: string;
  uses: Set<Placeholder>;
  /** Placeholders in the host, each of which must expand to one DNS label. */
  inHost: Set<Placeholder>;
  /** The input it came from, for messages. */
  input: string;
}

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
  if (!isHttpsOrLocal(url)) {
    throw new InputError(
      `Input '${name}' must be an https:// URL (http:// only on localhost, 127.0.0.0/8 and [::1]); got ${shown(text)}.`,
    );
  }
  const inHost = new Set([...uses].filter((placeholder) => url.hostname.includes(stand(placeholder))));
  return { text, uses, inHost, input: name };
}

/** Undefined while a value it uses is unknown. */
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
