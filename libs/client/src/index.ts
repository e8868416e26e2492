export * from './lib/gaia-client';
export * from './lib/errors';
export { parseSse } from './lib/sse';
export { ROUTES, BROWSER_ONLY_OPERATIONS, type Route, type HttpMethod } from './lib/routes';
