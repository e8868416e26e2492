module.exports = { ...require('../../../jest.preset.js'), displayName: 'retrieval-data-access', rootDir: __dirname };
