import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/** Browser end-to-end tests of the signed-in area. Needs GAIA_E2E_BASE_URL (the running platform). */
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    include: ['tests/e2e/dashboard/**/*.e2e-spec.ts'],
    // Every test fails on a Content-Security-Policy violation of its pages.
    setupFiles: ['tests/e2e/support/csp-setup.ts'],
    environment: 'node',
    testTimeout: 240_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    sequence: { concurrent: false },
    pool: 'forks',
  },
});
