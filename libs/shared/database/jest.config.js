module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-database', rootDir: __dirname };
