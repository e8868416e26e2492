module.exports = { ...require('../../jest.preset.js'), displayName: 'app-platform', rootDir: __dirname };
