// Lets a bench script require the TypeScript sources (libs/**/*.ts) as they are: compiled on the fly by @swc/core
// (no extra dependency), decorators as NestJS needs them, and the @gaia/* aliases of tsconfig.base.json resolved.
//   require('../register-ts.cjs');  then  require('../../libs/engine/src/index.ts')
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const ROOT = path.resolve(__dirname, '..');

require.extensions['.ts'] = function (module, filename) {
  const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true } },
    module: { type: 'commonjs' },
  });
  module._compile(out.code, filename);
};
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.base.json'), 'utf8'));
require('tsconfig-paths').register({ baseUrl: ROOT, paths: tsconfig.compilerOptions.paths });
