import * as core from '@actions/core';

/**
 * The runner masks registered secrets in the log only. Files this action writes (results file,
 * JUnit report, summary) and texts the service echoes back go through `redact` as well.
 */
const secrets: string[] = [];

export function registerSecret(value: string): void {
  if (value === '' || secrets.includes(value)) return;
  secrets.push(value);
  core.setSecret(value);
}

export function redact(text: string): string {
  return secrets.reduce((result, secret) => result.split(secret).join('***'), text);
}

/** For tests. */
export function clearSecrets(): void {
  secrets.length = 0;
}
