module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-observability', rootDir: __dirname };
