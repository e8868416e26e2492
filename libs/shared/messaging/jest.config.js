module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-messaging', rootDir: __dirname };
