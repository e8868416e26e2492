module.exports = { ...require('../../../jest.preset.js'), displayName: 'translation-data-access', rootDir: __dirname };
