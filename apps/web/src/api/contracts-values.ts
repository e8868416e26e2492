/**
 * The values the web app may import from `@gaia/contracts`: its zod-free constant modules. Vite resolves
 * `@gaia/contracts` to this file (vite.config.ts), so the bundle gets these constants and nothing else of the
 * contracts; a value import of anything else (a zod schema) fails the build instead of bundling zod. Type
 * imports (`import type`) are erased and read the whole contracts.
 */
export * from '../../../../libs/contracts/src/http/field-limits';
