module.exports = { ...require('../../jest.preset.js'), displayName: 'app-ingestion', rootDir: __dirname };
