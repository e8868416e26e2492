module.exports = { ...require('../../../jest.preset.js'), displayName: 'agents-feature', rootDir: __dirname };
