module.exports = { ...require('../../jest.preset.js'), displayName: 'app-retrieval', rootDir: __dirname };
