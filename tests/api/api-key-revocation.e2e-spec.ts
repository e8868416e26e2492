import request from 'supertest';
import { waitFor, type TestApp } from '@gaia/testing';
import { signUp, startApi } from './support/api-app';

/**
 * Two gateways on one database, each caching API keys (issue #13): a key revoked through one is refused by the
 * other as soon as the change notice arrives (Postgres trigger + LISTEN/NOTIFY), without a timed assertion.
 */
describe('API key revocation across two gateways', () => {
  let a: TestApp & { url: string };
  let b: TestApp & { url: string };

  beforeAll(async () => {
    a = await startApi();
    b = await startApi({ database: a.db });
  });
  afterAll(async () => {
    await b?.close({ keepDatabase: true });
    await a?.close();
  });

  it('a key revoked on gateway A is refused by gateway B', async () => {
    const u = await signUp(a.url, 'revoker');
    const created = await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'two gateways' }).expect(200);
    const key = created.body.api_key as string;
    // An unknown agent: the key is accepted (404 from the access check), and now cached by gateway B.
    const translate = () =>
      request(b.url)
        .post('/api/translate/')
        .set('X-API-Key', key)
        .send({ text: 'hola', model_id: 'no-such-agent', src_lang: 'es', tgt_lang: 'gn', stream: false });
    for (let i = 0; i < 3; i++) expect((await translate()).status).toBe(404);
    await u.agent.post('/api/api-keys/revoke/').set('X-CSRF-Token', u.csrf).send({ key_id: created.body.key.key_id }).expect(200);
    const refused = await waitFor(translate, (r) => r.status !== 404, { what: 'gateway B refusing the revoked key' });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'This API key has been revoked.' });
  });
});
