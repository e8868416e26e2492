import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

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
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'apiKey')
    .addCookieAuth('gaia_session', { type: 'apiKey', in: 'cookie', name: 'gaia_session' }, 'session')
    .build();
}

/** The OpenAPI document of every controller of an app (sorted, so the committed file is stable). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const doc = SwaggerModule.createDocument(app, openApiConfig(), { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
  return sortKeys(doc) as OpenAPIObject;
}

export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}
