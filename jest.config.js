/** Jest on ESM: ts-jest compiles TypeScript, imports written with `.js` map back to `.ts`. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } },
    ],
  },
  testMatch: ['**/__tests__/**/*.test.ts'],
  globalSetup: '<rootDir>/__tests__/helpers/global-setup.mjs',
  setupFiles: ['<rootDir>/__tests__/helpers/quiet-stdout.ts'],
  // One line per test file, and the failures: also when a single file runs.
  verbose: false,
  globalTeardown: '<rootDir>/__tests__/helpers/global-teardown.mjs',
  testTimeout: 30000,
};
