import { registerSecret } from '../runner/secrets.js';
import { isRecord } from './options-text.js';

/** Every string inside a value, for masking a structured sensitive override. */
function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (isRecord(value)) return Object.values(value).flatMap(stringLeaves);
  return [];
}

const isSensitive = (override: unknown): override is Record<string, unknown> =>
  isRecord(override) && override.sensitive === true;

/** Before anything could print them. */
export function maskSensitiveOverrides(options: unknown): void {
  if (!isRecord(options) || !isRecord(options.variableOverrides)) return;
  for (const override of Object.values(options.variableOverrides).filter(isSensitive)) {
    for (const secret of stringLeaves(override.value)) registerSecret(secret);
  }
}

/** For the summary; also those `sent` marked sensitive, whatever the service echoes. */
export function hideSensitiveValues(
  options: Record<string, unknown>,
  sent: unknown,
): Record<string, unknown> {
  if (!isRecord(options.variableOverrides)) return options;
  const sentOverrides = isRecord(sent) && isRecord(sent.variableOverrides) ? sent.variableOverrides : {};
  // Built from entries, not by assignment: no name (not even '__proto__') is special.
  const overrides = Object.fromEntries(
    Object.entries(options.variableOverrides).map(([name, override]) => {
      const sentAsSensitive = Object.hasOwn(sentOverrides, name) && isSensitive(sentOverrides[name]);
      if (!sentAsSensitive && !isSensitive(override)) return [name, override];
      return [name, isRecord(override) ? { ...override, value: '***' } : '***'];
    }),
  );
  return { ...options, variableOverrides: overrides };
}
