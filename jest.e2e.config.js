// End-to-end tier (Jest): tests/**/*.e2e-spec.ts — API tests on a real app + Postgres (tests/api),
// multi-process tests (tests/multiprocess, tests/platform). Browser specs driven by Vitest
// (folders with their own vitest.config.ts, e.g. tests/e2e/public) are excluded here.
const base = require('./jest.preset.js');
module.exports = {
  ...base,
  rootDir: __dirname,
  displayName: 'e2e',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.e2e-spec.ts'],
  // Browser suites (tests/e2e/<suite>/vitest.config.ts) run under Vitest via tools/e2e-browser.mjs.
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, '/tests/e2e/'],
  globalSetup: '<rootDir>/tools/jest/integration-global-setup.js',
  testTimeout: 120000,
  // One suite at a time: the multi-process suites start up to 12 processes on a 2-core machine.
  maxWorkers: 1,
};
