import { randomUUID } from 'node:crypto';
import type { RpcRequest } from '@gaia/contracts';
import { billingSchema } from '@gaia/billing/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { ManualClock } from '@gaia/shared/kernel';
import { createTestApp, type TestApp } from '@gaia/testing';
import { BillingModule } from './billing.module';
import { LEASE_MAX_BLOCK, QuotaLeases } from './quota-leases';

/**
 * Quota in blocks (issue #13): a paid user's key is metered from leases reserved in Postgres, in two processes
 * on one database. Never more than the key's limit, a request id counted once, and the counter equals the
 * written authorizations once the leases are given back.
 */
describe('quota leases on the real Postgres (two processes)', () => {
  let a: TestApp;
  let b: TestApp;
  // Writes and idle give-back only when the test asks (flush / returnIdle): deterministic.
  const manual = { quotaLeases: { flushMs: 3_600_000, idleMs: 3_600_000 } };

  beforeAll(async () => {
    a = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot(manual)] });
    b = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot(manual)], database: a.db });
  });
  afterAll(async () => {
    await b?.close({ keepDatabase: true });
    await a?.close();
  });

  const call = (t: TestApp, req: Partial<RpcRequest<'billing.authorize.v1'>>) =>
    t.app
      .get<RpcClient>(RPC_CLIENT)
      .call('billing.authorize.v1', { requestId: randomUUID(), keyId: null, userId: null, channel: 'api', ...req })
      .then(
        () => true,
        (e: { status: number }) => {
          if (e.status !== 429) throw e;
          return false;
        },
      );
  const settle = async () => {
    for (const t of [a, b]) await t.app.get(QuotaLeases).flush();
    for (const t of [a, b]) await t.app.get(QuotaLeases).returnIdle(0);
  };
  const keyCount = async (keyId: string): Promise<number> =>
    (await a.dataSource.query(`SELECT COALESCE(sum(count), 0)::int AS n FROM billing_counter WHERE subject = $1`, [`key:${keyId}:requests`]))[0].n;
  const written = async (keyId: string): Promise<number> =>
    (await a.dataSource.query(`SELECT count(*)::int AS n FROM billing_authorization WHERE key_id = $1 AND status = 'allowed'`, [keyId]))[0].n;
  const enterprise = async (userId: string) =>
    a.dataSource.query(`INSERT INTO billing_plan (user_id, plan, changed_at) VALUES ($1, 'enterprise', now())`, [userId]);

  it('never allows more than the key limit across both processes, and then exactly the limit in all', async () => {
    const userId = randomUUID();
    const keyId = randomUUID();
    const limit = 300;
    await enterprise(userId);
    const req = { userId, keyId, keyRateLimit: limit };
    // The first call of each process reads key and plan (exact path); the rest come from leases.
    expect(await call(a, req)).toBe(true);
    expect(await call(b, req)).toBe(true);
    const outcomes = await Promise.all(Array.from({ length: 2 * limit }, (_, i) => call(i % 2 ? b : a, req)));
    const allowed = 2 + outcomes.filter(Boolean).length;
    expect(allowed).toBeLessThanOrEqual(limit);
    // Units only a process held back (its lease) were refused early, never given twice: at most one block each.
    expect(allowed).toBeGreaterThanOrEqual(limit - 2 * LEASE_MAX_BLOCK);
    await settle();
    expect(await keyCount(keyId)).toBe(allowed);
    expect(await written(keyId)).toBe(allowed);
    // With the leases given back, the remaining units are allowed until exactly the limit.
    let more = 0;
    while (await call(more % 2 ? b : a, req)) more++;
    expect(allowed + more).toBe(limit);
    await settle();
    expect(await keyCount(keyId)).toBe(limit);
    expect(await written(keyId)).toBe(limit);
  });

  it('counts a request id once when both processes authorize it', async () => {
    const userId = randomUUID();
    const keyId = randomUUID();
    await enterprise(userId);
    const req = { userId, keyId, keyRateLimit: 1000 };
    await call(a, req);
    await call(b, req);
    await settle();
    const before = await keyCount(keyId);
    const requestId = randomUUID();
    expect(await call(a, { ...req, requestId })).toBe(true);
    expect(await call(b, { ...req, requestId })).toBe(true);
    expect(await call(a, { ...req, requestId })).toBe(true);
    await settle();
    expect(await keyCount(keyId)).toBe(before + 1);
    expect(await written(keyId)).toBe(before + 1);
  });

  it('gives the units of a failed translation back, held or written', async () => {
    const userId = randomUUID();
    const keyId = randomUUID();
    await enterprise(userId);
    const req = { userId, keyId, keyRateLimit: 1000 };
    await call(a, req);
    await settle();
    const held = randomUUID();
    const written1 = randomUUID();
    await call(a, { ...req, requestId: held });
    await call(a, { ...req, requestId: written1 });
    await a.app.get(QuotaLeases).flush();
    const rpc = a.app.get<RpcClient>(RPC_CLIENT);
    await call(a, { ...req, requestId: held });
    expect(await rpc.call('billing.release.v1', { requestId: written1 })).toEqual({ released: true });
    const held2 = randomUUID();
    await call(a, { ...req, requestId: held2 });
    expect(await rpc.call('billing.release.v1', { requestId: held2 })).toEqual({ released: true });
    expect(await rpc.call('billing.release.v1', { requestId: held2 })).toEqual({ released: false });
    await settle();
    expect(await keyCount(keyId)).toBe(2); // the first call and `held`
    expect(await written(keyId)).toBe(2);
  });
});

describe('quota lease ages on the billing clock (real Postgres)', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date('2026-11-24T10:00:00.000Z'));
  /** Idle time asked of the give-back: far beyond what a test run takes, so only the clock can age a lease. */
  const IDLE_MS = 60 * 60_000;

  beforeAll(async () => {
    t = await createTestApp({
      schemas: [billingSchema],
      consumers: ['billing'],
      imports: [BillingModule.forRoot({ clock, quotaLeases: { flushMs: 3_600_000, idleMs: 3_600_000 } })],
    });
  });
  afterAll(() => t?.close());

  it('gives the unused units of a lease back once it is idle on the BILLING_CLOCK, not before', async () => {
    const userId = randomUUID();
    const keyId = randomUUID();
    await t.dataSource.query(`INSERT INTO billing_plan (user_id, plan, changed_at) VALUES ($1, 'enterprise', now())`, [userId]);
    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    const req = { keyId, userId, channel: 'api' as const, keyRateLimit: 1000 };
    // The first call reads key and plan (exact path); the next ones reserve a block.
    for (let i = 0; i < 3; i++) await rpc.call('billing.authorize.v1', { requestId: randomUUID(), ...req });
    const leases = t.app.get(QuotaLeases);
    await leases.flush();
    const counted = async (): Promise<number> =>
      (await t.dataSource.query(`SELECT COALESCE(sum(count), 0)::int AS n FROM billing_counter WHERE subject = $1`, [`key:${keyId}:requests`]))[0].n;
    expect(await counted()).toBeGreaterThan(3);
    await leases.returnIdle(IDLE_MS);
    expect(await counted()).toBeGreaterThan(3);
    clock.advance(IDLE_MS);
    await leases.returnIdle(IDLE_MS);
    expect(await counted()).toBe(3);
  });
});
