/**
 * HTTP DTOs shared by the gateway and the web app (see docs/api-surface.md).
 * Domain owners add files here (e.g. `agents.http.ts`) and re-export them below.
 */
export * from './field-limits';
export * from './gateway.http';
export * from './translate-batch.http';
export * from './translate-file.http';
export * from './web-answers.http';
