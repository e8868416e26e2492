import { randomUUID } from 'node:crypto';
import type { RpcRequest } from '@gaia/contracts';
import { billingSchema, FORGET_PUBLIC_IPS_SQL, PURGE_PUBLIC_IP_COUNTERS_SQL } from '@gaia/billing/data-access';
import { ManualClock } from '@gaia/shared/kernel';
import { messagingSchema, RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createDataSource, runMigrations } from '@gaia/shared/database';
import { createTestApp, createTestDatabase, waitFor, type TestApp, type TestDatabase } from '@gaia/testing';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
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

/**
 * The migration that adds those indexes runs on an installation that is serving: billing_authorization takes a row per
 * translation. A plain CREATE INDEX waits for a long open transaction on the table and queues every other writer behind
 * its lock until then (translations stop); CREATE INDEX CONCURRENTLY lets them through.
 */
describe('purge of expired public-translator counters: adding its indexes while translations are authorized', () => {
  const INDEXES_MIGRATION = 'BillingPublicIpPurgeIndexes1795800000007';
  let db: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [billingSchema] });
    ds = createDataSource({ url: db.url, schemas: [billingSchema] });
    await ds.initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const authorization = (q: QueryRunner) =>
    q.query(
      `INSERT INTO billing_authorization (request_id, user_id, key_id, channel, plan, counters, status, created_at)
       VALUES ($1, NULL, NULL, 'public', 'free', '[]', 'allowed', now())`,
      [randomUUID()],
    );

  it('an authorization is written while the migration waits for a long transaction, and the indexes end up valid', async () => {
    const Migration = billingSchema.migrations.find((m) => m.name === INDEXES_MIGRATION);
    if (!Migration) throw new Error(`${INDEXES_MIGRATION} is not in the billing schema`);
    const migration = new (Migration as new () => MigrationInterface)();
    const [setup, long, migrating, other] = [0, 1, 2, 3].map(() => ds.createQueryRunner());
    try {
      await migration.down(setup); // the installation as it was before the migration
      await long.startTransaction();
      await authorization(long); // a long transaction that wrote to the table and is still open
      const [{ pid }]: Array<{ pid: number }> = await migrating.query(`SELECT pg_backend_pid() AS pid`);
      const migrated = migration.up(migrating);
      await waitFor(
        async () => ((await ds.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [pid])) as Array<{ wait_event_type: string | null }>)[0],
        (a) => a?.wait_event_type === 'Lock',
        { what: 'the migration to wait for the open transaction' },
      );
      await other.query(`SET lock_timeout = '10s'`);
      await authorization(other); // a plain CREATE INDEX would hold this one until the long transaction ends
      await long.commitTransaction();
      await migrated;
      const indexes: Array<{ name: string; valid: boolean }> = await ds.query(
        `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname IN ('billing_counter_public_ip', 'billing_authorization_public_ip') ORDER BY 1`,
      );
      expect(indexes).toEqual([
        { name: 'billing_authorization_public_ip', valid: true },
        { name: 'billing_counter_public_ip', valid: true },
      ]);
    } finally {
      if (long.isTransactionActive) await long.rollbackTransaction();
      for (const q of [setup, long, migrating, other]) await q.release();
    }
  });
});

/** Replicas start together on an empty database: one migrates, the others wait for it, and none waits forever. */
describe('purge of expired public-translator counters: replicas starting at once', () => {
  it('two replicas migrate an empty database at the same time and both finish', async () => {
    const db = await createTestDatabase();
    const replicas = [0, 1].map(() => createDataSource({ url: db.url, schemas: [messagingSchema, billingSchema] }));
    try {
      await Promise.all(replicas.map((ds) => ds.initialize()));
      const ran = await Promise.all(replicas.map((ds) => runMigrations(ds)));
      expect(ran.flat()).toContain('BillingPublicIpPurgeIndexes1795800000007');
      expect(ran.flat().filter((m) => m === 'BillingPublicIpPurgeIndexes1795800000007')).toHaveLength(1);
    } finally {
      for (const ds of replicas) if (ds.isInitialized) await ds.destroy();
      await db.drop();
    }
  }, 60_000);
});
