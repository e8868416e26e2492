// End-to-end tier: tests/**/*.e2e-spec.ts (API tests on a real app + Postgres, browser tests, multi-process).
const base = require('./jest.preset.js');
module.exports = {
  ...base,
  rootDir: __dirname,
  displayName: 'e2e',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/tools/jest/integration-global-setup.js',
  testTimeout: 120000,
  maxWorkers: process.env.CI ? 2 : 1,
};
