import { Global, Module } from '@nestjs/common';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import { identitySchema } from '@gaia/identity/data-access';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, DatabaseModule } from '@gaia/shared/database';
import { APP_CONFIG } from '@gaia/shared/config';
import { CLOCK, ManualClock } from '@gaia/shared/kernel';
import { createTestDatabase, waitFor, type TestDatabase } from '@gaia/testing';
import { AccountsService } from './accounts/accounts.service';
import { ApiKeysService } from './api-keys/api-keys.service';
import { IdempotencyService, PURGE_EVERY_CALLS, REPLAY_WINDOW_MS } from './idempotency/idempotency.service';
import { IdentityModule } from './identity.module';
import { RATE_LIMITER, type RateLimiter } from './identity.tokens';

/** Two independent module instances on one database = two gateway replicas. */
async function replica(db: TestDatabase, clock: ManualClock) {
  @Global()
  @Module({
    providers: [
      { provide: CLOCK, useValue: clock },
      { provide: APP_CONFIG, useValue: { DATA_DIR: join(tmpdir(), 'gaia-identity-test') } },
    ],
    exports: [CLOCK, APP_CONFIG],
  })
  class TestCoreModule {}
  return Test.createTestingModule({
    imports: [
      TestCoreModule,
      DatabaseModule.forRoot({ url: db.url, schemas: [identitySchema], poolSize: 5, runMigrations: false, applicationName: 'identity-test' }),
      IdentityModule.forRoot({ sessionTtlMs: 3600_000 }),
    ],
  }).compile();
}

describe('identity on the real Postgres', () => {
  let db: TestDatabase;
  const clock = new ManualClock(new Date('2026-03-01T23:59:50Z'));
  let r1: Awaited<ReturnType<typeof replica>>;
  let r2: Awaited<ReturnType<typeof replica>>;

  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [identitySchema] });
    r1 = await replica(db, clock);
    r2 = await replica(db, clock);
    await Promise.all([r1.init(), r2.init()]);
  });
  afterAll(async () => {
    await r1?.close();
    await r2?.close();
    await db?.drop();
  });

  it('creates the public translator key once even when replicas start together', async () => {
    const [a, b] = await Promise.all([r1.get(ApiKeysService).ensurePublicKey(), r2.get(ApiKeysService).ensurePublicKey()]);
    expect(a).toBe(b);
    const p = await r1.get(ApiKeysService).authenticate(a);
    expect(p).toMatchObject({ kind: 'public', userId: null });
  });

  it('rate limits exactly across replicas under concurrency, per fixed window', async () => {
    const limiters = [r1.get<RateLimiter>(RATE_LIMITER), r2.get<RateLimiter>(RATE_LIMITER)];
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 2].hit('test:bucket', 10, 86400)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    expect(decisions.find((d) => !d.allowed)!.retryAfterSeconds).toBe(10); // seconds to 00:00 UTC
    clock.advance(11_000); // next UTC day: a fresh window
    expect((await limiters[0].hit('test:bucket', 10, 86400)).allowed).toBe(true);
  });

  it('sessions are valid on every replica, expire, and end on sign-out', async () => {
    const user = await r1.get(AccountsService).signUp({ email: 'Sami@Example.org', password: 'pachamama 123', fullName: ' Sami ' });
    expect(user).toMatchObject({ email: 'sami@example.org', fullName: 'Sami', displayName: 'Sami' });
    const s = await r1.get(AccountsService).openSession(user.id);
    expect((await r2.get(AccountsService).resolveSession(s.token))?.user.id).toBe(user.id);
    clock.advance(3600_000 + 1);
    expect(await r2.get(AccountsService).resolveSession(s.token)).toBeNull();
    const s2 = await r2.get(AccountsService).openSession(user.id);
    await r1.get(AccountsService).closeSession(s2.token);
    expect(await r2.get(AccountsService).resolveSession(s2.token)).toBeNull();
  });

  it('an Idempotency-Key is claimed by exactly one of many concurrent requests', async () => {
    const services = [r1.get(IdempotencyService), r2.get(IdempotencyService)];
    const starts = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => services[i % 2].begin('user:1', 'POST /x', 'k-1', 'hash-a')));
    expect(starts.filter((s) => s.status === 'fulfilled' && s.value.kind === 'new')).toHaveLength(1);
    expect(starts.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason.status)).toEqual(Array(7).fill(409));
    await services[0].complete('user:1', 'POST /x', 'k-1', 201, { ok: 1 });
    await expect(services[1].begin('user:1', 'POST /x', 'k-1', 'hash-a')).resolves.toEqual({ kind: 'replay', status: 201, body: { ok: 1 } });
    await expect(services[1].begin('user:1', 'POST /x', 'k-1', 'hash-b')).rejects.toMatchObject({ status: 422 });
    await expect(services[1].begin('user:2', 'POST /x', 'k-1', 'hash-b')).resolves.toEqual({ kind: 'new' });
  });

  it('forgets Idempotency-Keys older than the replay window of the CLOCK, so the key may carry a new request', async () => {
    const service = r1.get(IdempotencyService);
    await expect(service.begin('user:3', 'POST /x', 'k-old', 'hash-a')).resolves.toEqual({ kind: 'new' });
    await service.complete('user:3', 'POST /x', 'k-old', 201, { ok: 1 });
    clock.advance(REPLAY_WINDOW_MS + 1);
    // Every PURGE_EVERY_CALLS-th request purges in the background; wait until the old record is gone.
    for (let i = 0; i < PURGE_EVERY_CALLS; i++) await service.begin('user:3', 'POST /x', `k-${i}`, 'hash-a');
    await waitFor(
      (): Promise<{ n: number }[]> => r1.get<DataSource>(DATA_SOURCE).query(`SELECT count(*)::int AS n FROM identity_idempotency WHERE key = 'k-old'`),
      (rows) => rows[0].n === 0,
      { what: 'the purge of the old record' },
    );
    await expect(service.begin('user:3', 'POST /x', 'k-old', 'hash-b')).resolves.toEqual({ kind: 'new' });
  });

  it('revoked and unknown keys are refused with 401', async () => {
    const u = await r1.get(AccountsService).signUp({ email: 'keys@example.org', password: 'pachamama 123' });
    const { apiKey, record } = await r1.get(ApiKeysService).create(u.id, 'k');
    expect((await r2.get(ApiKeysService).authenticate(apiKey)).keyId).toBe(record.id);
    await r2.get(ApiKeysService).revoke(u.id, record.id);
    await expect(r1.get(ApiKeysService).authenticate(apiKey)).rejects.toMatchObject({ status: 401, message: 'This API key has been revoked.' });
    await expect(r1.get(ApiKeysService).revoke('00000000-0000-0000-0000-000000000000', record.id)).rejects.toMatchObject({ status: 404 });
  });
});
