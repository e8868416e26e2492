module.exports = { ...require('../../../jest.preset.js'), displayName: 'ingestion-feature', rootDir: __dirname };
