import { cellText, preText, UNTITLED } from '../../src/report/escape.js';
import { clearSecrets, registerSecret } from '../../src/runner/secrets.js';
import { captureStdout } from './helpers.js';

afterEach(() => clearSecrets());

describe('cellText', () => {
  it.each([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&quot;'],
    ["'", '&#39;'],
    ['|', '&#124;'],
    ['`', '&#96;'],
    ['*', '&#42;'],
    ['_', '&#95;'],
    ['[', '&#91;'],
    [']', '&#93;'],
    ['\\', '&#92;'],
    ['$x$', '&#36;x&#36;'],
    ['~~x~~', '&#126;&#126;x&#126;&#126;'],
    ['a\nb', 'a b'],
    ['a\r\n\r\nb', 'a b'],
    ['a \n\n b', 'a b'],
    ['a\tb', 'a b'],
    ['a\u2028b', 'a b'],
    ['\n  lead and trail  \n', 'lead and trail'],
    ['a\u0000b\u0007c', 'a&lt;U+0000&gt;b&lt;U+0007&gt;c'],
    ['bidi \u202eevil\u2066x\u2069', 'bidi &lt;U+202E&gt;evil&lt;U+2066&gt;x&lt;U+2069&gt;'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['&amp;', '&amp;amp;'],
    ['lone \ud800 high', 'lone \ufffd high'],
    ['lone \udc00 low', 'lone \ufffd low'],
    ['pair 😀', 'pair 😀'],
    ['', UNTITLED],
    [' \n\t ', UNTITLED],
  ])('%j -> %j', (input, expected) => {
    expect(cellText(input)).toBe(expected);
  });

  it('cuts past 200 code points with an ellipsis', () => {
    const result = cellText('a'.repeat(300));
    expect([...result]).toHaveLength(200);
    expect(result).toBe(`${'a'.repeat(199)}…`);
    expect(cellText('a'.repeat(200))).toBe('a'.repeat(200));
  });

  it('never splits a surrogate pair', () => {
    const result = cellText(`${'a'.repeat(198)}😀😀😀`);
    expect(result).toBe(`${'a'.repeat(198)}😀…`);
    expect(cellText('😀'.repeat(300))).toBe(`${'😀'.repeat(199)}…`);
  });

  it('cuts before escaping, so no entity is split', () => {
    expect(cellText('&'.repeat(300))).toBe(`${'&amp;'.repeat(199)}…`);
  });

  it('folds a title of 300,000 spaces around a line break in linear time', () => {
    // A regular expression that looked for spaces before a break took 88 s on this title.
    const spaces = ' '.repeat(300_000);
    expect(cellText(`Checkout${spaces}\n${spaces}total`)).toBe('Checkout total');
    expect(cellText(`Checkout${spaces}total`)).toBe('Checkout…');
  });

  it('redacts before cutting, so no part of a secret is left at the cut', () => {
    const stdout = captureStdout();
    registerSecret('SECRETVALUE');
    stdout.restore();
    const result = cellText(`${'a'.repeat(196)}SECRETVALUE tail`);
    expect(result).not.toContain('SEC');
    expect(result).toBe(`${'a'.repeat(196)}&#42;&#42;&#42;…`);
  });
});

describe('preText', () => {
  it('keeps line breaks but escapes', () => {
    expect(preText('{\n  "a": "<b>"\n}', 100)).toBe('{\n  &quot;a&quot;: &quot;&lt;b&gt;&quot;\n}');
  });
});
