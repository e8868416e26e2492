module.exports = { ...require('../../../jest.preset.js'), displayName: 'translation-llm', rootDir: __dirname };
