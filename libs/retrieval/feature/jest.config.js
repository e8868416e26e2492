module.exports = { ...require('../../../jest.preset.js'), displayName: 'retrieval-feature', rootDir: __dirname };
