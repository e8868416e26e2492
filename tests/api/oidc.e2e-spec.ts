import type { TestApp } from '@gaia/testing';
import { startApi } from './support/api-app';
import { startTestIdp, type TestIdp } from './support/test-idp';

/** A tiny cookie jar + manual redirects, as a browser popup would follow them. */
class Browser {
  private jar = new Map<string, Map<string, string>>();
  async get(url: string): Promise<Response> {
    const u = new URL(url);
    const cookies = [...(this.jar.get(u.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookies ? { cookie: cookies } : {} });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const m = this.jar.get(u.host) ?? new Map<string, string>();
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) m.delete(pair.slice(0, i));
      else m.set(pair.slice(0, i), value);
      this.jar.set(u.host, m);
    }
    return res;
  }
  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }
  /** Follows redirects until a non-3xx answer or `stopAt` matches the next URL. */
  async follow(url: string, stopAt: (u: URL) => boolean): Promise<{ url: string; res?: Response }> {
    let next = url;
    for (let i = 0; i < 10; i++) {
      if (stopAt(new URL(next))) return { url: next };
      const res = await this.get(next);
      const loc = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !loc) return { url: next, res };
      next = new URL(loc, next).toString();
    }
    throw new Error('too many redirects');
  }
}

describe('popup sign-in with OpenID Connect (authorization code + PKCE) against a real oidc-provider', () => {
  let t: TestApp & { url: string };
  let idp: TestIdp;
  let issuer: string;
  const authRequests: URL[] = [];

  beforeAll(async () => {
    // oidc-provider's development notices (dev signing keys, default TTLs) are expected here.
    for (const level of ['warn', 'info'] as const) {
      const original = console[level].bind(console);
      jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        if (!String(args[0]).startsWith('oidc-provider')) original(...args);
      });
    }
    idp = await startTestIdp();
    issuer = idp.issuer;
    t = await startApi({
      env: { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: 'gaia-web', OIDC_CLIENT_SECRET: 'a-client-secret-for-tests-only', OIDC_PROVIDER_NAME: 'Test IdP' },
    });
    idp.serve({
      id: 'gaia-web',
      secret: 'a-client-secret-for-tests-only',
      redirectUri: `${t.url}/api/auth/oidc/callback`,
      onAuthorize: (url) => authRequests.push(url),
    });
  });

  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('advertises the provider in the public config', async () => {
    const res = await fetch(`${t.url}/api/public/config`);
    expect(await res.json()).toMatchObject({ oidcEnabled: true, oidcProviderName: 'Test IdP' });
  });

  it('redirects with S256 PKCE, state and nonce; the callback signs in and posts to the opener; the state cannot be replayed', async () => {
    const b = new Browser();
    const start = await b.get(`${t.url}/api/auth/oidc/start`);
    expect(start.status).toBe(302);
    const auth = new URL(start.headers.get('location')!);
    expect(auth.origin).toBe(issuer);
    expect(auth.searchParams.get('response_type')).toBe('code');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.searchParams.get('state')).toBeTruthy();
    expect(auth.searchParams.get('nonce')).toBeTruthy();
    expect(auth.searchParams.get('redirect_uri')).toBe(`${t.url}/api/auth/oidc/callback`);

    const { url: callbackUrl } = await b.follow(auth.toString(), (u) => u.pathname === '/api/auth/oidc/callback');
    expect(new URL(callbackUrl).searchParams.get('code')).toBeTruthy();
    const done = await b.get(callbackUrl);
    expect(done.status).toBe(200);
    const html = await done.text();
    expect(html).toContain('window.opener.postMessage');
    expect(html).toContain('{"type":"gaia-auth","ok":true}');
    const host = new URL(t.url).host;
    expect(b.cookie(host, 'gaia_session')).toBeTruthy();
    expect(b.cookie(host, 'gaia_csrf')).toBeTruthy();

    const account = await b.get(`${t.url}/api/account`);
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ email: 'inti.mamani@idp.test', fullName: 'Inti Mamani', accountType: 'Standard' });
    const rows = await t.dataSource.query(`SELECT oidc_issuer, oidc_subject, password_hash FROM identity_user WHERE email = 'inti.mamani@idp.test'`);
    expect(rows).toEqual([{ oidc_issuer: issuer, oidc_subject: 'idp-user-1', password_hash: null }]);

    // The same callback again: the state was consumed.
    const replay = await new Browser().get(callbackUrl);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('"ok":false');
  });

  it('a second sign-in finds the same user (linked by issuer + subject)', async () => {
    const b = new Browser();
    const start = await b.get(`${t.url}/api/auth/oidc/start`);
    const { url } = await b.follow(start.headers.get('location')!, (u) => u.pathname === '/api/auth/oidc/callback');
    expect((await b.get(url)).status).toBe(200);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM identity_user WHERE oidc_subject = 'idp-user-1'`);
    expect(n).toBe(1);
    expect(authRequests.length).toBeGreaterThanOrEqual(2);
  });

  it('a callback with a forged state is refused', async () => {
    const res = await new Browser().get(`${t.url}/api/auth/oidc/callback?code=abc&state=forged`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('The sign-in request expired or was already used.');
  });
});
