import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi } from './support/api-app';

const COMMON_PASSWORD = 'This password is too common or too easy to guess. Use a longer passphrase, for example a few unrelated words.';
const ACCOUNT_LOCKED = 'Too many failed sign-in attempts for this account. Please try again later.';

describe('passwords: common ones are refused, failed sign-ins are throttled per account', () => {
  let t: TestApp & { url: string };
  beforeAll(async () => {
    t = await startApi({
      env: { TRUST_PROXY: 'true' },
      // Per IP generous (every attempt below comes from its own address), per account strict.
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }], failedSignInsPerAccount: [{ limit: 3, windowSeconds: 3600 }] },
    });
  });
  afterAll(() => t?.close());

  it.each(['        ', 'password', '12345678', 'qwertyuiop', 'iloveyou123', 'Password1!', 'ana.quispe@example.org'])(
    'refuses the password %j at sign-up',
    async (password) => {
      const res = await request(t.url).post('/api/auth/signup').send({ email: 'ana.quispe@example.org', password, fullName: 'Ana Quispe' }).expect(400);
      expect(res.body).toEqual({ error: COMMON_PASSWORD });
      expect(res.headers['x-error-code']).toBe('common_password');
      expect((await t.dataSource.query(`SELECT 1 FROM identity_user WHERE email = 'ana.quispe@example.org'`)).length).toBe(0);
    },
  );

  it('accepts a passphrase', async () => {
    await request(t.url).post('/api/auth/signup').send({ email: 'rosa@example.org', password: 'sulpayki yaku wasi', fullName: 'Rosa' }).expect(201);
  });

  it('locks an account after repeated failures from many addresses, even for the right password, without touching other accounts', async () => {
    const victim = await signUp(t.url, 'victim');
    const other = await signUp(t.url, 'other');
    for (let i = 0; i < 3; i++) {
      const r = await request(t.url)
        .post('/api/auth/signin')
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .send({ email: victim.email, password: `guess number ${i}` });
      expect(r.status).toBe(401);
    }
    const locked = await request(t.url)
      .post('/api/auth/signin')
      .set('X-Forwarded-For', '203.0.113.50')
      .send({ email: victim.email.toUpperCase(), password: 'correct horse battery' })
      .expect(429);
    expect(locked.body).toEqual({ error: ACCOUNT_LOCKED });
    expect(locked.headers['x-error-code']).toBe('account_locked');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    await request(t.url)
      .post('/api/auth/signin')
      .set('X-Forwarded-For', '203.0.113.51')
      .send({ email: other.email, password: 'correct horse battery' })
      .expect(200);
    // Unknown emails are counted the same way (no hint whether an account exists).
    for (let i = 0; i < 3; i++)
      await request(t.url)
        .post('/api/auth/signin')
        .set('X-Forwarded-For', `198.51.100.${i + 1}`)
        .send({ email: 'nobody@example.org', password: 'whatever it is' })
        .expect(401);
    expect((await request(t.url).post('/api/auth/signin').send({ email: 'nobody@example.org', password: 'whatever it is' }).expect(429)).body).toEqual({
      error: ACCOUNT_LOCKED,
    });
    // The counter lives in Postgres (shared by every gateway replica), keyed by a hash rather than the email.
    const buckets: Array<{ bucket: string }> = await t.dataSource.query(`SELECT bucket FROM identity_rate_counter WHERE bucket LIKE 'auth:account:%'`);
    expect(buckets.length).toBeGreaterThan(0);
    expect(buckets.map((b) => b.bucket).join(' ')).not.toContain(victim.email);
  });
});
