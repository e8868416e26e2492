import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// The scopes of the services' domains and what they share: what only composing projects may use together.
const everyDomain = [
  'scope:agents',
  'scope:identity',
  'scope:billing',
  'scope:ingestion',
  'scope:retrieval',
  'scope:translation',
  'scope:gateway',
  'scope:engine',
  'scope:shared',
];

// Who may import whom: by type (apps → features → data-access → utils/contracts) and by scope (a domain
// uses itself and shared; only apps, e2e tests and benchmarks compose domains). Never `*` → `*`.
const depConstraints = [
  // By type: apps compose features; features use data-access, contracts and utils; leaves stay leaves.
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:contracts', 'type:util'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:contracts', 'type:util', 'type:testing'] },
  { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:contracts', 'type:util'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:contracts', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:contracts', 'type:util', 'type:testing'] },
  // By scope: a domain uses itself and shared; only apps, e2e tests and the gateway compose domains.
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:engine', onlyDependOnLibsWithTags: ['scope:engine', 'scope:shared'] },
  { sourceTag: 'scope:agents', onlyDependOnLibsWithTags: ['scope:agents', 'scope:shared'] },
  { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:identity', 'scope:shared'] },
  { sourceTag: 'scope:billing', onlyDependOnLibsWithTags: ['scope:billing', 'scope:shared'] },
  { sourceTag: 'scope:ingestion', onlyDependOnLibsWithTags: ['scope:ingestion', 'scope:engine', 'scope:shared'] },
  { sourceTag: 'scope:retrieval', onlyDependOnLibsWithTags: ['scope:retrieval', 'scope:engine', 'scope:shared'] },
  { sourceTag: 'scope:translation', onlyDependOnLibsWithTags: ['scope:translation', 'scope:engine', 'scope:retrieval', 'scope:shared'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:identity', 'scope:shared'] },
  { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:web', 'scope:shared'] },
  // The operator's command line (libs/operator) composes domains like the platform app that runs it.
  {
    sourceTag: 'scope:operator',
    onlyDependOnLibsWithTags: ['scope:agents', 'scope:identity', 'scope:billing', 'scope:ingestion', 'scope:retrieval', 'scope:translation', 'scope:shared'],
  },
  // The platform app, end-to-end tests and benchmarks compose every domain (the platform and e2e also the operator's use cases).
  { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:operator', ...everyDomain] },
  { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:operator', 'scope:platform', ...everyDomain] },
  { sourceTag: 'scope:bench', onlyDependOnLibsWithTags: everyDomain },
];

// Tests may also use @gaia/testing (builders, test databases, drain helpers, protocol doubles).
const testDepConstraints = depConstraints.map((c) =>
  c.sourceTag.startsWith('type:') && c.sourceTag !== 'type:contracts'
    ? { ...c, onlyDependOnLibsWithTags: [...new Set([...c.onlyDependOnLibsWithTags, 'type:testing'])] }
    : c,
);

// Data, not code: the web documentation page shows the figures the benchmarks committed (bench/results/*.json,
// read at build time) instead of typed-in claims. Only those JSON files may be imported across the boundary.
const allow = ['/bench/results/[a-z-]+\\.json$'];

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'tmp/**', 'tmp-*', '**/coverage/**', '**/*.d.ts', '**/vite.config.*', 'apps/web/public/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow,
          banTransitiveDependencies: false,
          depConstraints,
        },
      ],
    },
  },
  {
    // Configuration only through the app's validated config (APP_CONFIG; catalog in libs/shared/config), never
    // process.env in library code. Allowed: the config loader, the process entry points that hand the environment to
    // it, a child process inheriting the environment, the command-line client, and test helpers.
    files: ['libs/**/*.ts'],
    ignores: [
      'libs/**/*.spec.ts',
      'libs/**/*.integration-spec.ts',
      'libs/testing/**',
      'libs/*/*/src/testing/**',
      'libs/shared/config/src/**',
      'libs/shared/bootstrap/src/bootstrap-service.ts',
      'libs/shared/bootstrap/src/run-command.ts',
      'libs/shared/database/src/embedded-postgres.ts',
      'libs/client/src/cli/**',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration from the validated APP_CONFIG (libs/shared/config catalog), not process.env.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and a lib's own test helpers (src/testing) may also use @gaia/testing (builders, test databases, drain helpers,
    // protocol doubles).
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.integration-spec.ts', 'libs/*/*/src/testing/**/*.ts', 'tests/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow,
          banTransitiveDependencies: false,
          depConstraints: testDepConstraints,
        },
      ],
    },
  },
];
