import * as core from '@actions/core';

/**
 * The runner masks registered secrets in the log only. Files this action writes (results file,
 * JUnit report, summary) and texts the service echoes back go through `redact` as well.
 */
const secrets: string[] = [];

const MASK = '***';

export function registerSecret(value: string): void {
  if (value === '' || secrets.includes(value)) return;
  secrets.push(value);
  core.setSecret(value);
}

export function redact(text: string): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.split(secret).join(MASK);
  }
  return result;
}

/**
 * Redacts `text`, cleans it with `clean`, and redacts again when cleaning changed it: a secret
 * split by a character that cleaning removes must not come back together unmasked.
 */
export function redactAround(text: string, clean: (text: string) => string): string {
  const redacted = redact(text);
  const cleaned = clean(redacted);
  return cleaned === redacted ? cleaned : redact(cleaned);
}

/** For tests: forget every secret registered so far. */
export function clearSecrets(): void {
  secrets.length = 0;
}
