/**
 * Loaded before each test file (jest.config.js `setupFiles`). What the toolkit writes on stdout
 * for the runner, workflow commands (`::debug::…`, `::add-mask::…`) and the `[command]` lines of
 * the tools it runs, is dropped from the test output: tests that check it capture stdout
 * themselves (see in-process.ts), above this filter. Anything else still prints.
 */
const RUNNER_LINE = /^(::[a-z][\w-]*( [^\n]*)?::[^\n]*|\[command\][^\n]*)$/;
const wrapped = Symbol.for('test-run-action.quiet-stdout');
const stdout = process.stdout as NodeJS.WriteStream & { [wrapped]?: true };

if (!stdout[wrapped]) {
  const write = stdout.write.bind(stdout) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
  stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = text.split(/\r?\n/);
    if (lines.at(-1) === '') lines.pop();
    if (lines.length > 0 && lines.every((line) => RUNNER_LINE.test(line))) {
      // As a write would: the callback, if any, still runs.
      const callback = rest.find((each) => typeof each === 'function') as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof stdout.write;
  stdout[wrapped] = true;
}
