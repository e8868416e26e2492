import { randomUUID } from 'node:crypto';
import type { EventEnvelope, RpcRequest, UsageRecordedV1 } from '@gaia/contracts';
import { billingSchema } from '@gaia/billing/data-access';
import { ManualClock } from '@gaia/shared/kernel';
import { EVENT_DELIVERER, OUTBOX, RPC_CLIENT, type EventDeliverer, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, type TestApp } from '@gaia/testing';
import { BillingModule } from './billing.module';

type Outcome = { ok: true } | { ok: false; status: number; code: string; retryAfter: number | undefined };

describe('billing service on the real Postgres', () => {
  const clock = new ManualClock(new Date('2026-05-20T18:00:00.000Z'));
  let t: TestApp;
  let second: TestApp;
  let rpc: RpcClient;
  let rpc2: RpcClient;

  beforeAll(async () => {
    t = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot({ clock })] });
    // A second process on the same database, like a second gateway replica calling its own billing.
    second = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot({ clock })], database: t.db });
    rpc = t.app.get<RpcClient>(RPC_CLIENT);
    rpc2 = second.app.get<RpcClient>(RPC_CLIENT);
  });
  afterAll(async () => {
    await second.close({ keepDatabase: true });
    await t.close();
  });

  const authorize = (client: RpcClient, req: Partial<RpcRequest<'billing.authorize.v1'>> & { userId: string | null }): Promise<Outcome> =>
    client.call('billing.authorize.v1', { requestId: randomUUID(), keyId: null, ...req }).then(
      () => ({ ok: true as const }),
      (e: { status: number; code: string; message?: string; details?: { retryAfterSeconds?: number } }) => ({
        ok: false as const,
        status: e.status,
        code: e.code,
        retryAfter: e.details?.retryAfterSeconds,
        ...(e.status === 503 ? { message: e.message, details: e.details } : {}),
      }),
    );

  function usage(over: Partial<UsageRecordedV1> = {}): UsageRecordedV1 {
    return {
      requestId: randomUUID(),
      keyId: null,
      userId: null,
      agentId: 'agent-1',
      sourceWords: 10,
      inputTokens: 100,
      outputTokens: 50,
      engine: 'builtin',
      fallbackReason: null,
      latencyMs: 12,
      occurredAt: clock.now().toISOString(),
      ...over,
    };
  }
  async function emitUsage(u: UsageRecordedV1, id?: string): Promise<string> {
    const outbox = t.app.get<Outbox>(OUTBOX);
    return t.dataSource.transaction((em) => outbox.add(em, 'usage.recorded.v1', u, { id }));
  }

  it('Free: 30 parallel API calls from two processes → exactly 10 allowed, the rest 429 with Retry-After to the UTC reset', async () => {
    const user = 'free-user';
    // Half through a key, half as key-less calls: only the plan counter row can keep the total at 10.
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => authorize(i % 2 ? rpc2 : rpc, { userId: user, keyId: i % 3 ? null : 'free-key' })));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    const refused = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
    expect(refused).toHaveLength(20);
    for (const r of refused) expect(r).toEqual({ ok: false, status: 429, code: 'plan_limit_reached', retryAfter: 6 * 3600 });
    const [{ count }] = await t.dataSource.query(`SELECT count FROM billing_counter WHERE subject = 'user:free-user:api-calls'`);
    expect(count).toBe(10);
    // Refusals consumed nothing from the key either.
    // (No key call may have been among the 10 allowed: then the key has no counter row.)
    const [{ count: keyCount }] = await t.dataSource.query(
      `SELECT COALESCE(sum(count), 0)::int AS count FROM billing_counter WHERE subject = 'key:free-key:requests'`,
    );
    const [{ n: keyAuthorized }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM billing_authorization WHERE key_id = 'free-key'`);
    expect(keyCount).toBe(keyAuthorized);
    // Session translations (dashboard test translator, Socket.IO) count under the same plan: refused too.
    expect(await authorize(rpc, { userId: user, channel: 'web' })).toEqual({ ok: false, status: 429, code: 'plan_limit_reached', retryAfter: 6 * 3600 });
    // The next UTC day the API answers again.
    clock.set(new Date('2026-05-21T00:00:00.000Z'));
    expect(await authorize(rpc, { userId: user })).toEqual({ ok: true });
    clock.set(new Date('2026-05-20T18:00:00.000Z'));
  });

  it('the message of a Free refusal is clear', async () => {
    for (let i = 0; i < 10; i++) await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: null, userId: 'msg-user' });
    await expect(rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: null, userId: 'msg-user' })).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('10 API calls per day'),
    });
  });

  it('counts a request id once and gives the quota back on release', async () => {
    const user = 'idem-user';
    const requestId = randomUUID();
    const first = await rpc.call('billing.authorize.v1', { requestId, keyId: 'idem-key', userId: user });
    expect(first).toMatchObject({ allowed: true, plan: 'free', remaining_today: 9, key_remaining_today: 999, duplicate: false });
    const again = await rpc2.call('billing.authorize.v1', { requestId, keyId: 'idem-key', userId: user });
    expect(again).toMatchObject({ remaining_today: 9, duplicate: true });
    expect(await rpc.call('billing.release.v1', { requestId })).toEqual({ released: true });
    expect(await rpc.call('billing.release.v1', { requestId })).toEqual({ released: false });
    expect((await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: 'idem-key', userId: user })).remaining_today).toBe(9);
  });

  it('the public translator is metered per client IP (minute and day windows); a release after recorded usage keeps the units', async () => {
    const limits = { perIpPerMinute: 20, perIpPerDay: 200 };
    const pub = (ip: string) => authorize(rpc, { userId: null, keyId: 'public', channel: 'public', keyRateLimit: null, ip });
    const outcomes = await Promise.all(Array.from({ length: limits.perIpPerMinute + 3 }, () => pub('203.0.113.7')));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(limits.perIpPerMinute);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(await pub('203.0.113.8')).toEqual({ ok: true });
    const requestId = randomUUID();
    await rpc.call('billing.authorize.v1', { requestId, keyId: null, userId: 'used-user', channel: 'web' });
    await emitUsage(usage({ requestId, userId: 'used-user' }));
    await t.drain();
    expect(await rpc.call('billing.release.v1', { requestId })).toEqual({ released: false });
    const [{ count }] = await t.dataSource.query(`SELECT count FROM billing_counter WHERE subject = 'user:used-user:api-calls'`);
    expect(count).toBe(1);
  });

  it('per-key daily rate limit (default 1,000; given limits hold exactly under concurrency); paid plans have no daily call cap', async () => {
    await rpc.call('billing.set-plan.v1', { userId: 'pro-user', plan: 'starter' });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => authorize(i % 2 ? rpc2 : rpc, { userId: 'pro-user', keyId: 'small-key', keyRateLimit: 7 })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(7);
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 6 * 3600 });
    // Another key of the same Starter user is not affected, and 25 calls pass (no 10/day cap).
    const many = await Promise.all(Array.from({ length: 25 }, () => authorize(rpc, { userId: 'pro-user', keyId: 'big-key' })));
    expect(many.every((o) => o.ok)).toBe(true);
    const res = await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: 'big-key', userId: 'pro-user' });
    expect(res).toMatchObject({ plan: 'starter', remaining_today: null, key_remaining_today: 1000 - 26 });
    // No per-key limit for a key given null (e.g. the public translator key).
    expect(
      (await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: 'public-key', userId: 'pro-user', keyRateLimit: null })).key_remaining_today,
    ).toBeNull();
  });

  it('records usage exactly once per request under redelivery and re-emission', async () => {
    const u = usage({ keyId: 'once-key', userId: 'once-user' });
    const eventId = await emitUsage(u);
    await emitUsage(u, eventId); // idempotent re-add of the same event
    await emitUsage(u); // the same request re-emitted under another event id
    await t.drain();
    // The broker redelivers the same envelope (lost ack): the inbox drops it.
    const deliverer = t.app.get<EventDeliverer>(EVENT_DELIVERER);
    const envelope: EventEnvelope = { id: eventId, topic: 'usage.recorded.v1', key: u.requestId, occurredAt: u.occurredAt, payload: u };
    await deliverer.deliver('billing', envelope);
    await Promise.all([deliverer.deliver('billing', envelope), second.app.get<EventDeliverer>(EVENT_DELIVERER).deliver('billing', envelope)]);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM billing_usage WHERE request_id = $1`, [u.requestId]);
    expect(n).toBe(1);
    expect((await rpc.call('billing.key-usage.v1', { keyId: 'once-key' })).total_requests).toBe(1);
  });

  it('key usage: totals, costs ($3/M in, $15/M out), average tokens, newest requests first', async () => {
    const key = 'usage-key';
    await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: key, userId: 'usage-user', keyRateLimit: 500 });
    await emitUsage(usage({ keyId: key, inputTokens: 1_000, outputTokens: 400, sourceWords: 7, occurredAt: '2026-05-20T10:00:00.000Z' }));
    await emitUsage(usage({ keyId: key, inputTokens: 3_000, outputTokens: 600, sourceWords: 20, occurredAt: '2026-05-20T11:00:00.000Z' }));
    await t.drain();
    const res = await rpc.call('billing.key-usage.v1', { keyId: key });
    expect(res).toEqual({
      total_requests: 2,
      rate_limit: 500,
      // Authorized calls of the key today (its daily counter), not usage events.
      requests_today: 1,
      input_cost: 0.012,
      output_cost: 0.015,
      total_cost: 0.027,
      average_tokens_per_request: 2_500,
      requests: [
        { input_tokens: 3_000, output_tokens: 600, words: 20, created_at: '2026-05-20T11:00:00.000Z' },
        { input_tokens: 1_000, output_tokens: 400, words: 7, created_at: '2026-05-20T10:00:00.000Z' },
      ],
    });
    expect(await rpc.call('billing.key-usage.v1', { keyId: 'never-used' })).toEqual({
      total_requests: 0,
      rate_limit: 1000,
      requests_today: 0,
      input_cost: 0,
      output_cost: 0,
      total_cost: 0,
      average_tokens_per_request: 0,
      requests: [],
    });
  });

  it('user summary: totals, a daily series with empty days, and the billing month with overage (user from the key when the event has none)', async () => {
    const user = 'sum-user';
    // On Starter since the start of the month (a change mid-month is prorated: plans.integration-spec.ts).
    const now = clock.now();
    clock.set(new Date('2026-05-01T00:00:00.000Z'));
    await rpc.call('billing.set-plan.v1', { userId: user, plan: 'starter' });
    clock.set(now);
    await rpc.call('billing.authorize.v1', { requestId: randomUUID(), keyId: 'sum-key', userId: user });
    await emitUsage(usage({ userId: user, sourceWords: 4_000, inputTokens: 1_000_000, outputTokens: 0, occurredAt: '2026-04-30T23:59:59.000Z' })); // last month
    await emitUsage(usage({ userId: user, sourceWords: 3_000, inputTokens: 0, outputTokens: 1_000_000, occurredAt: '2026-05-18T09:00:00.000Z' }));
    await emitUsage(usage({ keyId: 'sum-key', userId: null, sourceWords: 3_000, inputTokens: 0, outputTokens: 0, occurredAt: '2026-05-20T08:00:00.000Z' }));
    await t.drain();
    const s = await rpc.call('billing.usage-summary.v1', { userId: user, days: 3 });
    expect(s).toMatchObject({ total_requests: 3, total_words: 10_000, total_cost: 18, plan: 'Starter' });
    expect(s.series).toEqual([
      { date: '2026-05-18', requests: 1, words: 3_000, cost: 15 },
      { date: '2026-05-19', requests: 0, words: 0, cost: 0 },
      { date: '2026-05-20', requests: 1, words: 3_000, cost: 0 },
    ]);
    expect(s.period).toEqual({
      start: '2026-05-01T00:00:00.000Z',
      end: '2026-06-01T00:00:00.000Z',
      words: 6_000,
      included_words: 5_000,
      overage_words: 1_000,
      overage_cost: 2.5,
      plan_price: 30,
      amount_due: 32.5,
      api_calls_today: 0,
      daily_api_calls: null,
      segments: [
        {
          plan: 'starter',
          start: '2026-05-01T00:00:00.000Z',
          end: '2026-06-01T00:00:00.000Z',
          share: 1,
          words: 6_000,
          included_words: 5_000,
          overage_words: 1_000,
          overage_cost: 2.5,
          plan_price: 30,
        },
      ],
    });
    // Changing the plan applies at once: from now on the month bills Enterprise (prorated).
    await rpc.call('billing.set-plan.v1', { userId: user, plan: 'enterprise' });
    const changed = (await rpc.call('billing.usage-summary.v1', { userId: user })).period;
    expect(changed.segments?.map((x) => [x.plan, x.start, x.words])).toEqual([
      ['starter', '2026-05-01T00:00:00.000Z', 6_000],
      ['enterprise', '2026-05-20T18:00:00.000Z', 0],
    ]);
    expect(await rpc.call('billing.get-plan.v1', { userId: 'nobody' })).toMatchObject({ id: 'free', name: 'Free', daily_api_calls: 10 });
  });

  describe('two billing replicas behind NATS (queue group) on one database', () => {
    it('still allows exactly 10 Free calls out of 30 parallel ones (DomainErrors cross NATS)', async () => {
      const env = { NATS_URL: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222' };
      const clock2 = new ManualClock(new Date('2026-07-01T12:00:00.000Z'));
      const a = await createTestApp({
        schemas: [billingSchema],
        consumers: ['billing'],
        imports: [BillingModule.forRoot({ clock: clock2 })],
        transport: 'nats',
        env,
      });
      const b = await createTestApp({
        schemas: [billingSchema],
        consumers: ['billing'],
        imports: [BillingModule.forRoot({ clock: clock2 })],
        transport: 'nats',
        env,
        database: a.db,
      });
      const caller = await createTestApp({ schemas: [billingSchema], consumers: [], transport: 'nats', env, database: a.db });
      try {
        const client = caller.app.get<RpcClient>(RPC_CLIENT);
        const user = `nats-user-${randomUUID()}`;
        const outcomes = await Promise.all(Array.from({ length: 30 }, () => authorize(client, { userId: user })));
        expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
        expect(outcomes.filter((o) => !o.ok && o.status === 429 && o.code === 'plan_limit_reached' && o.retryAfter === 12 * 3600)).toHaveLength(20);
      } finally {
        await caller.close({ keepDatabase: true });
        await b.close({ keepDatabase: true });
        await a.close();
      }
    });
  });
});
