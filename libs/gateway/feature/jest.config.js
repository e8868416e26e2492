module.exports = { ...require('../../../jest.preset.js'), displayName: 'gateway-feature', rootDir: __dirname };
