#!/usr/bin/env node
// Runs libs/engine/src/cli.ts with an on-the-fly TypeScript transform (@swc/core, already a dev dependency).
'use strict';
const fs = require('node:fs');
const swc = require('@swc/core');
require.extensions['.ts'] = function (module, filename) {
  const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
  });
  module._compile(out.code, filename);
};
require('../src/cli.ts')
  .main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((e) => {
    console.error(e);
    process.exit(1);
  });
