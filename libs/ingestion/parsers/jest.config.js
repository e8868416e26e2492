module.exports = { ...require('../../../jest.preset.js'), displayName: 'ingestion-parsers', rootDir: __dirname };
