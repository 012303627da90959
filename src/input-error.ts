/** An input that is missing or malformed; its message names the input and never a secret. */
export class InputError extends Error {
  override name = 'InputError';
}

/** Shows a value in an error message, shortened so a pasted blob cannot flood the log. */
export function shown(value: string): string {
  const short = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  return `'${short}'`;
}
