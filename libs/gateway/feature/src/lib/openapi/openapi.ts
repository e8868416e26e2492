import type { INestApplication, Type } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject, type SecurityRequirementObject } from '@nestjs/swagger';
import { fieldMaxLength } from '@gaia/contracts';
import { AUTH_MODE, type AuthMode } from '../auth/auth.guard';

export const OPENAPI_PATH = 'api/docs';

export function openApiConfig(): Omit<OpenAPIObject, 'paths'> {
  return new DocumentBuilder()
    .setTitle('Gaia API')
    .setDescription(
      'HTTP API of Gaia (translation agents for low-resource languages). Errors are `{ "error": "<message>" }` with the HTTP status. ' +
        'Session requests use the httpOnly `gaia_session` cookie; unsafe ones echo the `gaia_csrf` cookie in `X-CSRF-Token`. ' +
        'Writes accept `Idempotency-Key`. See docs/api-surface.md.',
    )
    .setVersion('1.0.0')
    .addServer('/', 'This Gaia instance (the API is served on the same origin as the web app)')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'apiKey')
    .addCookieAuth('gaia_session', { type: 'apiKey', in: 'cookie', name: 'gaia_session' }, 'session')
    .build();
}

/**
 * The security of an operation, derived from the same `@Auth` metadata the AuthGuard enforces: 'session'
 * needs the session cookie, 'key' an API key or the session, 'optional' anyone (the session widens what is
 * visible), none is public (explicitly empty).
 */
export function securityOf(mode: AuthMode | undefined): SecurityRequirementObject[] {
  switch (mode) {
    case 'session':
      return [{ session: [] }];
    case 'key':
      return [{ apiKey: [] }, { session: [] }];
    case 'optional':
      return [{}, { session: [] }];
    default:
      return [];
  }
}

const operationId = (controller: string, method: string) => `${controller.replace(/Controller$/, '')}_${method}`;

/** operationId → auth mode of every handler of the given controllers. */
function authModes(controllers: Array<Type<unknown>>): Map<string, AuthMode | undefined> {
  const modes = new Map<string, AuthMode | undefined>();
  for (const c of controllers) {
    const classMode = Reflect.getMetadata(AUTH_MODE, c) as AuthMode | undefined;
    for (const m of Object.getOwnPropertyNames(c.prototype)) {
      if (m === 'constructor') continue;
      const handler = (c.prototype as Record<string, unknown>)[m];
      if (typeof handler !== 'function') continue;
      modes.set(operationId(c.name, m), (Reflect.getMetadata(AUTH_MODE, handler) as AuthMode | undefined) ?? classMode);
    }
  }
  return modes;
}

/**
 * The OpenAPI 3.0 document of every controller of an app (sorted, so the committed file is stable). Each
 * operation's `security` comes from its `@Auth` mode (`controllers` lists the classes to read it from).
 */
export function buildOpenApiDocument(app: INestApplication, controllers: Array<Type<unknown>>): OpenAPIObject {
  const doc = SwaggerModule.createDocument(app, openApiConfig(), { operationIdFactory: operationId });
  const modes = authModes(controllers);
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const o = op as { operationId?: string; security?: SecurityRequirementObject[] };
      o.security = securityOf(modes.get(o.operationId ?? ''));
    }
  }
  return sortKeys(documentFieldLimits(doc)) as OpenAPIObject;
}

type Schema = { type?: string; maxLength?: number; properties?: Record<string, Schema>; items?: Schema };

/** The `maxLength` of every string input (request bodies, query and path parameters): the contracts' FIELD_MAX_LENGTH, enforced by FieldLimitsPipe. */
export function documentFieldLimits(source: OpenAPIObject): OpenAPIObject {
  const doc = structuredClone(source);
  const limit = (schema: Schema | undefined, name: string | undefined): Schema | undefined => {
    if (!schema || typeof schema !== 'object') return schema;
    const out: Schema = { ...schema };
    if (out.type === 'string' && name && out.maxLength === undefined) out.maxLength = fieldMaxLength(name);
    if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, limit(v, k) as Schema]));
    if (out.items) out.items = limit(out.items, name);
    return out;
  };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const o = op as { parameters?: Array<{ name?: string; schema?: Schema }>; requestBody?: { content?: Record<string, { schema?: Schema }> } };
      for (const p of o.parameters ?? []) if (p.schema) p.schema = limit(p.schema, p.name);
      for (const c of Object.values(o.requestBody?.content ?? {})) if (c.schema) c.schema = limit(c.schema, undefined);
    }
  }
  return doc;
}

export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}
