module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'bench-batch',
  rootDir: __dirname,
  testMatch: ['**/*.bench.ts'],
  globalSetup: require('node:path').join(__dirname, '../../tools/jest/integration-global-setup.js'),
};
