/** Kept equal to package.json's version by a test. */
const ACTION_NAME = 'test-run-action';
export const ACTION_VERSION = '1.0.0';
export const USER_AGENT = `${ACTION_NAME}/${ACTION_VERSION}`;
