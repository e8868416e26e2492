module.exports = { ...require('../../../jest.preset.js'), displayName: 'shared-bootstrap', rootDir: __dirname };
