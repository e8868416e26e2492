module.exports = { ...require('../../../jest.preset.js'), displayName: 'billing-feature', rootDir: __dirname };
