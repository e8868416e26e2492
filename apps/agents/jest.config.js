module.exports = { ...require('../../jest.preset.js'), displayName: 'app-agents', rootDir: __dirname };
