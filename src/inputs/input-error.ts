/** An input that is missing or malformed; its message names the input and never a secret. */
export class InputError extends Error {
  override name = 'InputError';
}
