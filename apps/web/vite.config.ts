/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * Values of @gaia/contracts at run time: its zod-free constants module only (types are erased), so a value import
 * of anything else (a zod schema) fails the build instead of bundling zod; checked by src/api/contracts-imports.spec.ts.
 */
const contractsValues = fileURLToPath(new URL('../../libs/contracts/src/http/field-limits.ts', import.meta.url));
const backend = process.env.GAIA_DEV_BACKEND ?? 'http://localhost:8080';

export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  plugins: [react()],
  resolve: { alias: [{ find: /^@gaia\/contracts$/, replacement: contractsValues }] },
  build: {
    outDir: '../../dist/apps/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2500,
  },
  server: {
    port: 4200,
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/socket.io': { target: backend, ws: true, changeOrigin: false },
    },
  },
  preview: {
    port: 4300,
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/socket.io': { target: backend, ws: true, changeOrigin: false },
    },
  },
  test: {
    root,
    environment: 'jsdom',
    include: ['src/**/*.spec.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // A bound, not a timing: above the 5 s waits of Testing Library (test/api-server.ts) plus the lazy compile of a
    // file's first render, so a slow shared machine fails a test on its own waits, not on the test's.
    testTimeout: 20_000,
  },
});
