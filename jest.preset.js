// Shared Jest preset: every project's jest.config.js spreads this.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true, tsx: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  moduleNameMapper,
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // NestJS 12 and a few other dependencies ship ESM only: let swc compile them to CommonJS for Jest.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|@socket\\.io|file-type|strtok3|token-types|uint8array-extras|@tokenizer|unpdf|openid-client|oauth4webapi|jose|oidc-provider|@koa|koa|p-limit|yocto-queue|nanoid|quick-lru|@opensearch-project|franc|trigram-utils|n-gram|collapse-white-space)/)',
  ],
};
