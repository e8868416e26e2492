module.exports = { ...require('../../../jest.preset.js'), displayName: 'billing-data-access', rootDir: __dirname };
