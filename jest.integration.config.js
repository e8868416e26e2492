// Integration tier: *.integration-spec.ts next to the code, on the machine's real Postgres/Redis/NATS.
const base = require('./jest.preset.js');
module.exports = {
  ...base,
  rootDir: __dirname,
  displayName: 'integration',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/tests/integration'],
  testMatch: ['**/*.integration-spec.ts'],
  globalSetup: '<rootDir>/tools/jest/integration-global-setup.js',
  testTimeout: 120000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
