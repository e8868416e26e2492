module.exports = { ...require('../../../jest.preset.js'), displayName: 'translation-feature', rootDir: __dirname };
