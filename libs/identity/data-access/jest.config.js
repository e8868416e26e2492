module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-data-access', rootDir: __dirname };
