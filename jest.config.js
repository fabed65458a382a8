/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Cross-page suites live in test/; a page's own tests sit beside its loader in server/pages (docs/adding-a-page.md).
  roots: ['<rootDir>/test', '<rootDir>/server/pages'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: { module: 'commonjs', jsx: 'react-jsx', esModuleInterop: true, isolatedModules: true } }],
  },
  // Limits are for hangs, not speed: a busy machine (stress-ng beside the run, see the README) must not fail a test.
  testTimeout: 120_000,
  globalSetup: '<rootDir>/test/support/global-setup.js',
  // Anything the code under test prints on the console (outside the JSON log) fails the test (console-guard.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/console-guard.ts'],
  // Heavy suites first on a clean clone too (test/support/sequencer.js).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Browser and multi-process suites share loopback ports and two cores; run files one at a time per worker pool.
  maxWorkers: 2,
};
