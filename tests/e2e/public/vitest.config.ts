import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/** Browser end-to-end tests of the public site. Needs GAIA_E2E_BASE_URL (the running platform). */
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    include: ['tests/e2e/public/**/*.e2e-spec.ts'],
    // Every test fails on a Content-Security-Policy violation of its pages.
    setupFiles: ['tests/e2e/support/csp-setup.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    pool: 'forks',
    // Waits (not speed assertions): a loaded 2-core machine can take a while to render the page.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
