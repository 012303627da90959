import { registerSecret } from '../runner/secrets.js';
import { isRecord } from './options-text.js';

/**
 * Sensitive variable overrides of suite runs: masked before anything is printed, hidden in the
 * summary.
 */

/** Every string inside a value, for masking a structured sensitive override. */
function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (isRecord(value)) return Object.values(value).flatMap(stringLeaves);
  return [];
}

const isSensitive = (override: unknown): override is Record<string, unknown> =>
  isRecord(override) && override.sensitive === true;

/** Masks the value of every override marked sensitive, before anything could print it. */
export function maskSensitiveOverrides(options: unknown): void {
  if (!isRecord(options) || !isRecord(options.variableOverrides)) return;
  for (const override of Object.values(options.variableOverrides).filter(isSensitive)) {
    for (const secret of stringLeaves(override.value)) registerSecret(secret);
  }
}

/** The names of the overrides marked sensitive. */
export function sensitiveOverrideNames(options: unknown): string[] {
  if (!isRecord(options) || !isRecord(options.variableOverrides)) return [];
  return Object.entries(options.variableOverrides)
    .filter(([, override]) => isSensitive(override))
    .map(([name]) => name);
}

/**
 * Replaces the values of sensitive overrides, for the summary: those the service marks sensitive
 * in `options`, and those named in `alsoHide` (sent as sensitive, whatever the service echoes).
 */
export function hideSensitiveValues(
  options: Record<string, unknown>,
  alsoHide: readonly string[] = [],
): Record<string, unknown> {
  if (!isRecord(options.variableOverrides)) return options;
  // Built from entries, not by assignment: no name (not even '__proto__') is special.
  const overrides = Object.fromEntries(
    Object.entries(options.variableOverrides).map(([name, override]) => {
      if (!alsoHide.includes(name) && !isSensitive(override)) return [name, override];
      return [name, isRecord(override) ? { ...override, value: '***' } : '***'];
    }),
  );
  return { ...options, variableOverrides: overrides };
}
