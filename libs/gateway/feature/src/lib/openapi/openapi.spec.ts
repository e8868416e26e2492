import { Test } from '@nestjs/testing';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HealthController } from '@gaia/shared/bootstrap';
import { GATEWAY_CONTROLLERS } from '../gateway.module';
import { buildOpenApiDocument, securityOf } from './openapi';

const COMMITTED = join(__dirname, '../../../../../../docs/openapi.json');

/** The document of the gateway's controllers (+ health), without any I/O: dependencies are empty mocks. */
async function generate(): Promise<string> {
  const moduleRef = await Test.createTestingModule({ controllers: [HealthController, ...GATEWAY_CONTROLLERS] })
    .useMocker(() => ({}))
    .compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    return `${JSON.stringify(buildOpenApiDocument(app, [HealthController, ...GATEWAY_CONTROLLERS]), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

describe('OpenAPI document (docs/openapi.json)', () => {
  it('is generated from the controllers and the committed file is up to date (npm run openapi)', async () => {
    const doc = await generate();
    if (process.env['UPDATE_OPENAPI'] === '1') writeFileSync(COMMITTED, doc);
    expect(existsSync(COMMITTED)).toBe(true);
    expect(readFileSync(COMMITTED, 'utf8')).toBe(doc);
  });

  it('covers every endpoint of docs/api-surface.md', async () => {
    const doc = JSON.parse(await generate()) as { paths: Record<string, Record<string, unknown>> };
    const ops = Object.entries(doc.paths).flatMap(([p, m]) => Object.keys(m).map((k) => `${k.toUpperCase()} ${p}`));
    const expected = [
      'GET /healthz',
      'GET /readyz',
      'GET /api/public/config',
      'GET /api/agents/public',
      'GET /api/agents/{id}',
      'POST /api/translate',
      'POST /api/translate/batch',
      'POST /api/translate/file',
      'GET /api/translate/file/status',
      'GET /api/translate/file/download',
      'GET /api/models/download',
      'POST /api/auth/signup',
      'POST /api/auth/signin',
      'POST /api/auth/signout',
      'GET /api/auth/me',
      'GET /api/auth/session',
      'POST /api/auth/verify-email',
      'POST /api/auth/verify-email/resend',
      'POST /api/team/invitations/accept',
      'GET /api/auth/oidc/start',
      'GET /api/auth/oidc/callback',
      'GET /api/account',
      'PATCH /api/account',
      'GET /api/agents/mine',
      'PATCH /api/agents/{id}',
      'POST /api/agents/{id}/visibility',
      'POST /api/delete-model',
      'POST /api/documents/process',
      'GET /api/documents/status',
      'POST /api/update-model',
      'POST /api/api-keys/create',
      'GET /api/api-keys/list',
      'POST /api/api-keys/revoke',
      'GET /api/api-keys/usage',
      'GET /api/usage/summary',
      'GET /api/team',
      'POST /api/team/members',
      'DELETE /api/team/members/{id}',
      'POST /api/plans/request',
      'GET /api/account/export',
      'POST /api/account/delete',
      'GET /api/corpora',
      'POST /api/corpora/import',
      'POST /api/agents/{id}/corrections',
      'GET /api/agents/{id}/corrections',
      'DELETE /api/agents/{id}/corrections/{correctionId}',
      'GET /api/agents/{id}/glossary',
      'POST /api/agents/{id}/glossary',
      'POST /api/agents/{id}/glossary/import',
      'PUT /api/agents/{id}/glossary/{termId}',
      'DELETE /api/agents/{id}/glossary/{termId}',
    ];
    expect(ops.sort()).toEqual(expected.sort());
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(methods)) {
        const responses = (op as { responses?: Record<string, unknown> }).responses ?? {};
        expect([`${m} ${path}`, Object.keys(responses).length > 0]).toEqual([`${m} ${path}`, true]);
      }
    }
  });

  it("derives each operation's security from its @Auth mode (public ones explicitly empty)", async () => {
    const doc = JSON.parse(await generate()) as { paths: Record<string, Record<string, { security?: unknown }>> };
    expect(doc.paths['/api/translate']['post'].security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(doc.paths['/api/account']['get'].security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/agents/public']['get'].security).toEqual([]);
    expect(doc.paths['/healthz']['get'].security).toEqual([]);
    expect(securityOf('optional')).toEqual([{}, { session: [] }]);
  });
});
