module.exports = { ...require('../../jest.preset.js'), displayName: 'app-translation', rootDir: __dirname };
