module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-storage', rootDir: __dirname };
