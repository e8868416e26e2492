import { createHash } from 'node:crypto';
import type { TestApp } from '@gaia/testing';
import { startApi } from './support/api-app';
import { startTestIdp, type TestIdp } from './support/test-idp';

const S256 = (v: string): string => createHash('sha256').update(v).digest('base64url');

/**
 * A pending OIDC sign-in (up to an hour in identity_oidc_state) holds no secret in plain text: the PKCE verifier and
 * the nonce are sealed, the state is kept only as a hash; the sign-in still completes (tests/api/oidc.e2e-spec.ts).
 */
describe('OIDC pending sign-ins at rest', () => {
  let t: TestApp & { url: string };
  let idp: TestIdp;

  beforeAll(async () => {
    for (const level of ['warn', 'info'] as const) {
      const original = console[level].bind(console);
      jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        if (!String(args[0]).startsWith('oidc-provider')) original(...args);
      });
    }
    idp = await startTestIdp();
    t = await startApi({
      env: { OIDC_ISSUER_URL: idp.issuer, OIDC_CLIENT_ID: 'gaia-web', OIDC_CLIENT_SECRET: 'a-client-secret-for-tests-only', OIDC_PROVIDER_NAME: 'Test IdP' },
    });
    idp.serve({ id: 'gaia-web', secret: 'a-client-secret-for-tests-only', redirectUri: `${t.url}/api/auth/oidc/callback`, onAuthorize: () => undefined });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('stores neither the PKCE verifier, nor the nonce, nor the state in plain text', async () => {
    const start = await fetch(`${t.url}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const auth = new URL(start.headers.get('location') as string);
    const [state, nonce, challenge] = ['state', 'nonce', 'code_challenge'].map((k) => auth.searchParams.get(k) as string);
    expect([state, nonce, challenge].every(Boolean)).toBe(true);

    const rows: Record<string, unknown>[] = await t.dataSource.query(`SELECT * FROM identity_oidc_state`);
    expect(rows).toHaveLength(1);
    const values = Object.values(rows[0]).filter((v): v is string => typeof v === 'string');
    for (const v of values) {
      expect(S256(v)).not.toBe(challenge); // the verifier itself
      expect(v).not.toContain(state);
      expect(v).not.toContain(nonce);
    }
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(state);
    expect(stored).not.toContain(nonce);
  });
});
