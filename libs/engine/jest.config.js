module.exports = { ...require('../../jest.preset.js'), displayName: 'engine', rootDir: __dirname };
