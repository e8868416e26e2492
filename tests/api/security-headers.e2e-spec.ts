import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { startApi } from './support/api-app';

/** Browser security headers on every answer (API, health, docs, the web app's pages); HSTS only over https. */
describe('security headers', () => {
  let t: TestApp & { url: string };
  let behindProxy: TestApp & { url: string };
  beforeAll(async () => {
    t = await startApi();
    behindProxy = await startApi({ env: { TRUST_PROXY: 'true' }, database: t.db });
  });
  afterAll(async () => {
    await behindProxy?.close();
    await t?.close();
  });

  const expectBrowserHeaders = (h: Record<string, string | undefined>) => {
    const csp = h['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(h['x-powered-by']).toBeUndefined();
  };

  it('sets CSP, frame-ancestors + X-Frame-Options, nosniff and Referrer-Policy, and no X-Powered-By, on API, health, docs and errors', async () => {
    for (const path of ['/api/public/config', '/healthz', '/api/docs-json', '/api/agents/public'])
      expectBrowserHeaders((await request(t.url).get(path).expect(200)).headers);
    expectBrowserHeaders((await request(t.url).get('/api/no-such-route').expect(404)).headers);
    expectBrowserHeaders((await request(t.url).post('/api/translate/').send({}).expect(401)).headers);
  });

  it('sends HSTS only when the request came over https (X-Forwarded-Proto honoured with TRUST_PROXY)', async () => {
    expect((await request(t.url).get('/api/public/config').expect(200)).headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY a client cannot claim https.
    expect((await request(t.url).get('/api/public/config').set('X-Forwarded-Proto', 'https').expect(200)).headers['strict-transport-security']).toBeUndefined();
    expect((await request(behindProxy.url).get('/api/public/config').expect(200)).headers['strict-transport-security']).toBeUndefined();
    const https = await request(behindProxy.url).get('/api/public/config').set('X-Forwarded-Proto', 'https').expect(200);
    expect(https.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}; includeSubDomains$/);
    expectBrowserHeaders(https.headers);
  });
});
