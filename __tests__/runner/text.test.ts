import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { clearSecrets, registerSecret } from '../../src/runner/secrets.js';
import { cut, line, safe } from '../../src/runner/text.js';
import { captureStdout } from '../report/helpers.js';

afterEach(() => clearSecrets());

describe('safe', () => {
  it.each([
    ['a\nb', 'a\\nb'],
    ['a\rb', 'a\\rb'],
    ['a\r\nb', 'a\\r\\nb'],
    ['a\tb', 'a\\tb'],
    ['a\u2028b\u2029c', 'a<U+2028>b<U+2029>c'],
    ['a\u0085b', 'a<U+0085>b'],
    ['esc \u001b[31m red', 'esc <U+001B>[31m red'],
    ['nul\u0000 del\u007f csi\u009b', 'nul<U+0000> del<U+007F> csi<U+009B>'],
    ['zero\u200bwidth', 'zero<U+200B>width'],
    ['bidi \u202eevil\u202c', 'bidi <U+202E>evil<U+202C>'],
    ['isolates \u2066a\u2067b\u2068c\u2069', 'isolates <U+2066>a<U+2067>b<U+2068>c<U+2069>'],
    ['emoji joiner 👩\u200d💻 stays', 'emoji joiner 👩\u200d💻 stays'],
    ['bom\ufeff', 'bom<U+FEFF>'],
    ['lone \ud800 high', 'lone \ufffd high'],
    ['pair 😀 and ü', 'pair 😀 and ü'],
    ['::error::x', '::error::x'],
  ])('%j -> %j', (input, expected) => {
    expect(safe(input)).toBe(expected);
  });

  it('never leaves a character that ends a line for the runner', () => {
    const everything = Array.from({ length: 0x3000 }, (_, code) => String.fromCharCode(code)).join('');
    expect(safe(everything, Number.POSITIVE_INFINITY)).not.toMatch(/[\r\n\u0085\u2028\u2029]/);
  });

  it('cuts at maxChars code points, escapes counted', () => {
    expect(safe('a'.repeat(300), 200)).toBe(`${'a'.repeat(199)}…`);
    expect(safe('\n'.repeat(300), 10)).toBe(`${'\\n'.repeat(4)}\\…`);
  });

  it('masks secrets before cutting, so no part of one is left at the cut', () => {
    const stdout = captureStdout();
    registerSecret('SECRETVALUE');
    stdout.restore();
    expect(safe(`${'a'.repeat(195)}SECRETVALUE tail`, 200)).toBe(`${'a'.repeat(195)}***…`);
    expect(safe('x\nSECRETVALUE')).toBe('x\\n***');
  });

  it('cleans a title of 5 MB, keeping what is shown', () => {
    const title = `Checkout${' \n'.repeat(2_500_000)}total`;
    const cleaned = safe(title, 200);
    expect(cleaned.startsWith(`Checkout${' \\n'.repeat(63)}`)).toBe(true);
    expect([...cleaned]).toHaveLength(200);
    expect(cleaned.endsWith('…')).toBe(true);
  });
});

describe('line', () => {
  it('cleans the values and keeps the literal text', () => {
    expect(line`Started ${'run\n::error::x'} (${3}).`).toBe('Started run\\n::error::x (3).');
  });
});

describe('cut', () => {
  it('leaves short text alone', () => {
    expect(cut('abc', 3)).toBe('abc');
    expect(cut('abcd', 3)).toBe('ab…');
  });
});

/** Every TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('only runner/text.ts makes SafeText: no cast anywhere else', () => {
  const casts = sources('src')
    .filter((file) => file !== path.join('src', 'runner', 'text.ts'))
    .filter((file) => /\bas\s+SafeText\b/.test(readFileSync(file, 'utf8')));
  expect(casts).toEqual([]);
});
