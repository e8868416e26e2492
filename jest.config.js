// Unit tier: *.spec.ts next to the code (no I/O). `npx jest <path>` runs a subset.
const base = require('./jest.preset.js');
module.exports = {
  ...base,
  rootDir: __dirname,
  displayName: 'unit',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/tools', '<rootDir>/helm'],
  testPathIgnorePatterns: [...base.testPathIgnorePatterns, '<rootDir>/apps/web/'],
  maxWorkers: process.env.CI ? 2 : '50%',
};
