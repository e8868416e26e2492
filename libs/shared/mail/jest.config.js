module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-mail', rootDir: __dirname };
