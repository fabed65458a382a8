/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: {
    '^.+\\.tsx?$': [
      'ts-jest',
      { tsconfig: { module: 'commonjs', jsx: 'react-jsx', esModuleInterop: true, isolatedModules: true } },
    ],
  },
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/support/global-setup.js',
  // Browser and multi-process suites share loopback ports and two cores; run files one at a time per worker pool.
  maxWorkers: 2,
};
