import * as core from '@actions/core';

/**
 * The runner masks registered secrets in the log only. Files this action writes (results file,
 * JUnit report, summary) and texts the service echoes back go through `redact` as well.
 */
const secrets = new Set<string>();

const MASK = '***';

export function registerSecret(value: string): void {
  if (value === '' || secrets.has(value)) return;
  secrets.add(value);
  core.setSecret(value);
}

export function redact(text: string): string {
  let result = text;
  for (const secret of secrets) {
    if (result.includes(secret)) result = result.split(secret).join(MASK);
  }
  return result;
}

/** For tests: forget every secret registered so far. */
export function clearSecrets(): void {
  secrets.clear();
}
