module.exports = { ...require('../jest.preset.js'), displayName: 'helm', rootDir: __dirname, testTimeout: 120000 };
