module.exports = { ...require('../../../jest.preset.js'), displayName: 'ingestion-data-access', rootDir: __dirname };
