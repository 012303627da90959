/**
 * The release and CI tools in .ci/: the changelog's notes and release move, and the licence check
 * failing when a bundled package's notice is missing. Each runs as CI and the release script run it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve('.');
const tool = (name: string) => join(root, '.ci', name);
let temp: string;

beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'release-tools-'));
});
afterEach(() => rmSync(temp, { recursive: true, force: true }));

function node(script: string, args: string[]) {
  const result = spawnSync(process.execPath, [tool(script), ...args], { cwd: temp, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('changelog.mjs', () => {
  const changelog = [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    '### Fixed',
    '',
    '- The time-out is honoured.',
    '',
    '## [1.0.0] - 2026-11-23',
    '',
    '### Added',
    '',
    '- Everything.',
    '',
    '[Unreleased]: https://github.com/acme/test-run-action/compare/v1.0.0...HEAD',
    '[1.0.0]: https://github.com/acme/test-run-action/releases/tag/v1.0.0',
    '',
  ].join('\n');

  it("prints one version's notes, and fails for a version it does not have", () => {
    writeFileSync(join(temp, 'CHANGELOG.md'), changelog);
    expect(node('changelog.mjs', ['notes', 'v1.0.0'])).toEqual({
      code: 0,
      stdout: '### Added\n\n- Everything.\n',
      stderr: '',
    });
    const missing = node('changelog.mjs', ['notes', '1.0.1']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('changelog: CHANGELOG.md has no section [1.0.1], or it is empty\n');
  });

  it('moves the Unreleased entries into a dated section and updates the links', () => {
    writeFileSync(join(temp, 'CHANGELOG.md'), changelog);
    expect(node('changelog.mjs', ['release', '1.0.1', '2026-12-01']).code).toBe(0);
    expect(readFileSync(join(temp, 'CHANGELOG.md'), 'utf8')).toBe(
      [
        '# Changelog',
        '',
        '## [Unreleased]',
        '',
        '## [1.0.1] - 2026-12-01',
        '',
        '### Fixed',
        '',
        '- The time-out is honoured.',
        '',
        '## [1.0.0] - 2026-11-23',
        '',
        '### Added',
        '',
        '- Everything.',
        '',
        '[Unreleased]: https://github.com/acme/test-run-action/compare/v1.0.1...HEAD',
        '[1.0.1]: https://github.com/acme/test-run-action/compare/v1.0.0...v1.0.1',
        '[1.0.0]: https://github.com/acme/test-run-action/releases/tag/v1.0.0',
        '',
      ].join('\n'),
    );
    const again = node('changelog.mjs', ['release', '1.0.2', '2026-12-02']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('changelog: CHANGELOG.md has nothing under ## [Unreleased] to release\n');
  });

  it('links the first release to its tag', () => {
    const first = [
      '## [Unreleased]',
      '',
      '- First.',
      '',
      '[Unreleased]: https://github.com/o/r/commits/main',
      '',
    ];
    writeFileSync(join(temp, 'CHANGELOG.md'), first.join('\n'));
    expect(node('changelog.mjs', ['release', '1.0.0', '2026-11-23']).code).toBe(0);
    expect(readFileSync(join(temp, 'CHANGELOG.md'), 'utf8').split('\n').slice(-3)).toEqual([
      '[Unreleased]: https://github.com/o/r/compare/v1.0.0...HEAD',
      '[1.0.0]: https://github.com/o/r/releases/tag/v1.0.0',
      '',
    ]);
  });
});

describe('licenses.mjs check', () => {
  it('passes on the committed dist/, and fails naming a bundled package whose notice is missing', () => {
    const dist = join(temp, 'dist');
    cpSync(join(root, 'dist'), dist, { recursive: true });
    expect(node('licenses.mjs', ['check', dist]).code).toBe(0);

    const notices = readFileSync(join(dist, 'licenses.txt'), 'utf8');
    const blocks = notices.split(/^={80}\n/m);
    const undici = blocks.findIndex((block) => block.startsWith('undici@'));
    expect(undici).toBeGreaterThan(0);
    blocks.splice(undici, 1);
    writeFileSync(join(dist, 'licenses.txt'), blocks.join(`${'='.repeat(80)}\n`));

    const result = node('licenses.mjs', ['check', dist]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/undici/);
  });
});
