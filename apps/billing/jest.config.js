module.exports = { ...require('../../jest.preset.js'), displayName: 'app-billing', rootDir: __dirname };
