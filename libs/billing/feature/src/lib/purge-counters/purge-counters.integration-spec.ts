import { randomUUID } from 'node:crypto';
import type { RpcRequest } from '@gaia/contracts';
import { billingSchema, FORGET_PUBLIC_IPS_SQL, PURGE_PUBLIC_IP_COUNTERS_SQL } from '@gaia/billing/data-access';
import { ManualClock } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, type TestApp } from '@gaia/testing';
import { BillingModule } from '../billing.module';
import { PURGE_COUNTERS_JOB, PURGE_EVERY_PUBLIC_AUTHORIZATIONS } from './purge-counters.use-case';

const DAY_MS = 86_400_000;

/**
 * The per-IP counters of the anonymous public translator (`public-ip:<ip>`, per minute and per UTC day) are purged
 * once their window has passed: billing_counter neither grows forever nor keeps client IPs past the day they count,
 * and billing_authorization (which names the counters a request took, for a release) forgets them too.
 */
describe('purge of expired public-translator counters on the real Postgres', () => {
  let t: TestApp;
  const clock = new ManualClock(new Date('2026-11-20T10:00:30Z'));

  beforeAll(async () => {
    t = await createTestApp({
      schemas: [billingSchema],
      consumers: ['billing'],
      imports: [BillingModule.forRoot({ clock, publicTranslator: { perIpPerMinute: 100_000, perIpPerDay: 100_000 } })],
    });
  });
  afterAll(() => t?.close());

  const authorize = (req: Partial<RpcRequest<'billing.authorize.v1'>>) =>
    t.app.get<RpcClient>(RPC_CLIENT).call('billing.authorize.v1', { requestId: randomUUID(), keyId: null, userId: null, channel: 'public', ...req });
  const counters = async (): Promise<Array<{ subject: string; window_key: string }>> =>
    t.dataSource.query(`SELECT subject, window_key FROM billing_counter ORDER BY subject, window_key`);

  it('the public authorizations queue a purge job that deletes the counters of windows that have passed, and only those', async () => {
    await authorize({ ip: '203.0.113.7' });
    await authorize({ ip: '198.51.100.9' });
    await authorize({ channel: 'web', userId: 'user-1', ip: null }); // a plan counter: not a public one, kept
    clock.advance(2 * DAY_MS);
    for (let i = 0; i < PURGE_EVERY_PUBLIC_AUTHORIZATIONS; i++) await authorize({ ip: '192.0.2.1' });
    // Queued in the authorization's own transaction: there once the authorization is answered (a drain cannot miss it).
    const queued: Array<{ n: number }> = await t.dataSource.query(`SELECT count(*)::int AS n FROM job WHERE kind = $1`, [PURGE_COUNTERS_JOB]);
    expect(queued[0].n).toBe(1);
    await t.drain();

    expect(await counters()).toEqual([
      { subject: 'public-ip:192.0.2.1', window_key: 'd:2026-11-22' },
      { subject: 'public-ip:192.0.2.1', window_key: 'm:2026-11-22T10:00' },
      { subject: 'user:user-1:api-calls', window_key: 'd:2026-11-20' },
    ]);
  });

  it("the purge also drops the client IPs from the counters of public authorizations whose windows have passed (today's keep them for a release)", async () => {
    const subjects = async (): Promise<Array<{ day: string; subjects: string[] }>> =>
      t.dataSource.query(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                ARRAY(SELECT DISTINCT c->>'subject' FROM jsonb_array_elements(counters) c ORDER BY 1) AS subjects
           FROM billing_authorization
          WHERE channel = 'public'
          GROUP BY 1, 2
          ORDER BY 1, 2`,
      );
    // The first test left public authorizations of 2026-11-20 (before the purge) and 2026-11-22 (the current day).
    expect(await subjects()).toEqual([
      { day: '2026-11-20', subjects: [] },
      { day: '2026-11-22', subjects: ['public-ip:192.0.2.1'] },
    ]);
  });
});

/**
 * The purge runs once an hour on every installation: it must not read all of billing_counter (every user's and key's
 * counters of every past day) nor every public authorization ever made. Partial indexes hold only the rows it is
 * after (public per-IP counters; public authorizations that still name a client IP), and its statements use them.
 */
describe('purge of expired public-translator counters: the indexes it reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot({})] });
  });
  afterAll(() => t?.close());

  /** The plan of a purge statement when the planner may not scan a whole table. */
  const planOf = (sql: string, params: unknown[]): Promise<string> =>
    t.dataSource.transaction(async (em) => {
      await em.query(`SET LOCAL enable_seqscan = off`);
      const rows: Array<{ 'QUERY PLAN': string }> = await em.query(`EXPLAIN ${sql}`, params);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });

  it('deleting the expired per-IP counters reads the partial index of the public counters', async () => {
    expect(await planOf(PURGE_PUBLIC_IP_COUNTERS_SQL, ['m:2026-11-22T10:00', 'd:2026-11-22'])).toContain('billing_counter_public_ip');
  });

  it('forgetting the client IPs of past public authorizations reads the partial index of those that still name one', async () => {
    expect(await planOf(FORGET_PUBLIC_IPS_SQL, [new Date('2026-11-22T00:00:00Z')])).toContain('billing_authorization_public_ip');
  });
});
