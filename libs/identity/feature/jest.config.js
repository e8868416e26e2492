module.exports = { ...require('../../../jest.preset.js'), displayName: 'identity-feature', rootDir: __dirname };
