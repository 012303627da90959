import type { Settings } from './settings.js';

/** Its message names the input and never a secret. */
export class InputError extends Error {
  override name = 'InputError';
  /** The targets read before the error, whose required checks must not wait for ever. */
  targets?: Settings[];
}
