/** Its message names the input and never a secret. */
export class InputError extends Error {
  override name = 'InputError';
}
