import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { cookieValue, signUp, startApi } from './support/api-app';

describe('accounts: sign-up, sign-in, sessions, CSRF, profile', () => {
  let t: TestApp & { url: string };
  beforeAll(async () => {
    t = await startApi({ gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
  });
  afterAll(() => t?.close());

  it('signs up with an argon2id hash, an httpOnly SameSite=Lax session cookie and a readable CSRF cookie', async () => {
    const email = `ana-${Date.now()}@example.org`;
    const res = await request(t.url)
      .post('/api/auth/signup')
      .send({ email: email.toUpperCase(), password: 'allin punchaw 123', fullName: 'Ana Quispe' })
      .expect(201);
    expect(res.body.user).toMatchObject({ email, fullName: 'Ana Quispe', displayName: 'Ana Quispe', accountType: 'Standard', plan: 'Free' });
    const cookies = (res.headers['set-cookie'] as unknown as string[]).join('\n');
    expect(cookies).toMatch(/gaia_session=[^;]+;.*HttpOnly/i);
    expect(cookies).toMatch(/gaia_session=[^;]+;.*SameSite=Lax/i);
    expect(cookies).toMatch(/gaia_csrf=[^;]+;(?!.*HttpOnly)/i);
    const [row] = await t.dataSource.query(`SELECT password_hash FROM identity_user WHERE email = $1`, [email]);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=\d+\$/);
    const [, m, tc] = /m=(\d+),t=(\d+)/.exec(row.password_hash)!;
    expect(Number(m)).toBeGreaterThanOrEqual(19456);
    expect(Number(tc)).toBeGreaterThanOrEqual(2);
    const token = cookieValue(res, 'gaia_session')!;
    const sessions = await t.dataSource.query(`SELECT token_hash FROM identity_session`);
    expect(sessions.map((s: { token_hash: string }) => s.token_hash)).not.toContain(token);
  });

  it('refuses a duplicate email, bad emails and weak passwords', async () => {
    const u = await signUp(t.url, 'dup');
    const r1 = await request(t.url).post('/api/auth/signup').send({ email: u.email, password: 'another password' }).expect(409);
    expect(r1.body).toEqual({ error: 'An account with this email already exists.' });
    expect((await request(t.url).post('/api/auth/signup').send({ email: 'not-an-email', password: 'long enough' }).expect(400)).body).toEqual({
      error: 'Please enter a valid email address.',
    });
    expect((await request(t.url).post('/api/auth/signup').send({ email: 'a@b.co', password: 'short' }).expect(400)).body).toEqual({
      error: 'Password must be at least 8 characters.',
    });
    expect((await request(t.url).post('/api/auth/signup').send({}).expect(400)).body).toEqual({ error: 'Please fill in all fields.' });
  });

  it('signs in, reads the profile, edits it with the CSRF token, and signs out', async () => {
    const u = await signUp(t.url, 'profile', 'password-one-two');
    const fresh = request.agent(t.url);
    expect((await fresh.post('/api/auth/signin').send({ email: u.email, password: 'wrong password' }).expect(401)).body).toEqual({
      error: 'Invalid email or password.',
    });
    expect((await fresh.post('/api/auth/signin').send({ email: 'nobody@example.org', password: 'wrong password' }).expect(401)).body).toEqual({
      error: 'Invalid email or password.',
    });
    const signin = await fresh.post('/api/auth/signin').send({ email: u.email, password: 'password-one-two' }).expect(200);
    const csrf = cookieValue(signin, 'gaia_csrf')!;
    const me = await fresh.get('/api/auth/me').expect(200);
    expect(me.body.user.email).toBe(u.email);
    const account = await fresh.get('/api/account').expect(200);
    expect(account.body).toMatchObject({ uid: u.uid, email: u.email, fullName: 'profile person', accountType: 'Standard', plan: 'Free' });
    expect(new Date(account.body.creationTime).getTime()).toBeLessThanOrEqual(new Date(account.body.lastSignInTime).getTime());

    // CSRF: missing or wrong header → 403 and nothing changes.
    expect((await fresh.patch('/api/account').send({ displayName: 'Hacked' }).expect(403)).body).toEqual({ error: 'Invalid or missing CSRF token.' });
    await fresh.patch('/api/account').set('X-CSRF-Token', 'forged').send({ displayName: 'Hacked' }).expect(403);
    // Another session's token is not this session's.
    await fresh.patch('/api/account').set('X-CSRF-Token', u.csrf).send({ displayName: 'Hacked' }).expect(403);
    const patched = await fresh.patch('/api/account').set('X-CSRF-Token', csrf).send({ displayName: 'Ñusta', fullName: 'Profile Person' }).expect(200);
    expect(patched.body).toMatchObject({ displayName: 'Ñusta', fullName: 'Profile Person' });
    expect((await u.agent.get('/api/account').expect(200)).body.displayName).toBe('Ñusta');

    await fresh.post('/api/auth/signout').expect(403);
    const out = await fresh.post('/api/auth/signout').set('X-CSRF-Token', csrf).expect(204);
    expect((out.headers['set-cookie'] as unknown as string[]).join('\n')).toMatch(/gaia_session=;/);
    await fresh.get('/api/auth/me').expect(401);
    // The other session of the same user is still valid.
    await u.agent.get('/api/auth/me').expect(200);
  });

  it('answers the session state with 200 for signed-out and signed-in callers (no 401 for a normal state)', async () => {
    const anonymous = await request(t.url).get('/api/auth/session').expect(200);
    expect(anonymous.body).toEqual({ user: null });
    expect(anonymous.headers['cache-control']).toContain('no-store');
    const u = await signUp(t.url, 'session-state');
    const signedIn = await u.agent.get('/api/auth/session').expect(200);
    expect(signedIn.body.user).toMatchObject({ uid: u.uid, email: u.email });
    // An unknown or ended session cookie is simply signed out.
    expect((await request(t.url).get('/api/auth/session').set('Cookie', 'gaia_session=not-a-session').expect(200)).body).toEqual({ user: null });
  });

  it('names each refusal with a stable code in X-Error-Code, so clients can show it in their own language', async () => {
    const u = await signUp(t.url, 'codes');
    const wrong = await request(t.url).post('/api/auth/signin').send({ email: u.email, password: 'wrong password' }).expect(401);
    expect(wrong.body).toEqual({ error: 'Invalid email or password.' });
    expect(wrong.headers['x-error-code']).toBe('invalid_credentials');
    expect((await request(t.url).post('/api/auth/signup').send({ email: u.email, password: 'another password' }).expect(409)).headers['x-error-code']).toBe(
      'email_taken',
    );
    expect((await request(t.url).get('/api/auth/me').expect(401)).headers['x-error-code']).toBe('unauthorized');
  });

  it('refuses cross-site unsafe requests (login CSRF through a form) but not same-origin ones', async () => {
    const u = await signUp(t.url, 'origin');
    const evil = await request(t.url)
      .post('/api/auth/signin')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ email: u.email, password: 'correct horse battery' })
      .expect(403);
    expect(evil.body).toEqual({ error: 'Cross-site request refused.' });
    expect(evil.headers['set-cookie']).toBeUndefined();
    await request(t.url).post('/api/auth/signin').set('Origin', t.url).send({ email: u.email, password: 'correct horse battery' }).expect(200);
  });

  it('a stolen cookie stops working after sign-out (the session is deleted server-side)', async () => {
    const u = await signUp(t.url, 'stolen');
    const res = await request(t.url).post('/api/auth/signin').send({ email: u.email, password: 'correct horse battery' }).expect(200);
    const cookie = `gaia_session=${cookieValue(res, 'gaia_session')}`;
    await request(t.url).get('/api/account').set('Cookie', cookie).expect(200);
    await request(t.url)
      .post('/api/auth/signout')
      .set('Cookie', `${cookie}; gaia_csrf=${cookieValue(res, 'gaia_csrf')}`)
      .set('X-CSRF-Token', cookieValue(res, 'gaia_csrf')!)
      .expect(204);
    await request(t.url).get('/api/account').set('Cookie', cookie).expect(401);
  });

  it('limits sign-in attempts per IP in Postgres (429 with Retry-After)', async () => {
    const limited = await startApi({ gateway: { authPerIp: [{ limit: 3, windowSeconds: 3600 }] }, database: undefined });
    try {
      for (let i = 0; i < 3; i++) await request(limited.url).post('/api/auth/signin').send({ email: 'x@example.org', password: 'wrong password' }).expect(401);
      const r = await request(limited.url).post('/api/auth/signin').send({ email: 'x@example.org', password: 'wrong password' }).expect(429);
      expect(r.body).toEqual({ error: 'Too many sign-in attempts. Please try again later.' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      const [{ n }] = await limited.dataSource.query(`SELECT sum(count)::int AS n FROM identity_rate_counter WHERE bucket LIKE 'auth:ip:%'`);
      expect(n).toBe(4);
    } finally {
      await limited.close();
    }
  });

  it('serves the public config with the low-privilege key, the same on every call', async () => {
    const a = await request(t.url).get('/api/public/config').expect(200);
    expect(a.body).toEqual({ publicApiKey: expect.stringMatching(/^gaia_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/), oidcEnabled: false, oidcProviderName: null });
    const b = await request(t.url).get('/api/public/config').expect(200);
    expect(b.body.publicApiKey).toBe(a.body.publicApiKey);
    const [row] = await t.dataSource.query(`SELECT kind, user_id FROM identity_api_key WHERE kind = 'public'`);
    expect(row).toEqual({ kind: 'public', user_id: null });
  });

  it('answers unknown routes and bad JSON with { error }', async () => {
    expect((await request(t.url).get('/api/nope').expect(404)).body).toEqual({ error: 'Not found.' });
    const r = await request(t.url).post('/api/auth/signin').set('Content-Type', 'application/json').send('{"email":').expect(400);
    expect(typeof r.body.error).toBe('string');
  });
});
