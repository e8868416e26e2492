module.exports = { ...require('../../../jest.preset.js'), displayName: 'agents-data-access', rootDir: __dirname };
