import { lastValueFrom, toArray } from 'rxjs';
import type { DataSource } from 'typeorm';
import { createTestApp, createTestDatabase, type TestApp } from '@gaia/testing';
import { createDataSource, runMigrations } from '@gaia/shared/database';
import { DiagnosticsModule, diagnosticsSchema, messagingSchema, OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';

async function probeCount(ds: DataSource, runId: string): Promise<{ total: number; distinct: number }> {
  const [r] = await ds.query(`SELECT count(*)::int AS total, count(DISTINCT seq)::int AS distinct FROM diagnostics_probe_applied WHERE run_id = $1`, [runId]);
  return r;
}

describe('messaging on the real Postgres', () => {
  it('applies every migration from an empty database, and twice is a no-op', async () => {
    const db = await createTestDatabase();
    const ds = createDataSource({ url: db.url, schemas: [messagingSchema, diagnosticsSchema] });
    await ds.initialize();
    try {
      expect(await runMigrations(ds)).toEqual(['MessagingInit1767000000000', 'DiagnosticsInit1767000000100', 'MessagingLeaseHolders1767951200000']);
      expect(await runMigrations(ds)).toEqual([]);
      const tables = (await ds.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).map((r: { tablename: string }) => r.tablename);
      expect(tables).toEqual(
        expect.arrayContaining(['outbox_event', 'outbox_delivery', 'inbox_message', 'job', 'diagnostics_probe_applied', 'schema_migrations']),
      );
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });

  describe('in-process transport', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ schemas: [diagnosticsSchema], consumers: ['probe'], imports: [DiagnosticsModule] });
    });
    afterAll(() => t.close());

    it('commits a state change and its event together, and rolls both back together', async () => {
      const outbox = t.app.get<Outbox>(OUTBOX);
      await t.dataSource.query('CREATE TABLE IF NOT EXISTS demo_state (id text PRIMARY KEY)');
      await t.dataSource.transaction(async (em) => {
        await em.query(`INSERT INTO demo_state VALUES ('committed')`);
        await outbox.add(em, 'diagnostics.probe.v1', { seq: 1, runId: 'tx-commit' });
      });
      await expect(
        t.dataSource.transaction(async (em) => {
          await em.query(`INSERT INTO demo_state VALUES ('rolled-back')`);
          await outbox.add(em, 'diagnostics.probe.v1', { seq: 2, runId: 'tx-rollback' });
          throw new Error('business rule failed');
        }),
      ).rejects.toThrow('business rule failed');
      await t.drain();
      expect((await t.dataSource.query('SELECT id FROM demo_state')).map((r: { id: string }) => r.id)).toEqual(['committed']);
      expect(await probeCount(t.dataSource, 'tx-commit')).toEqual({ total: 1, distinct: 1 });
      expect(await probeCount(t.dataSource, 'tx-rollback')).toEqual({ total: 0, distinct: 0 });
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox_event WHERE payload->>'runId' = 'tx-rollback'`);
      expect(n).toBe(0);
    });

    it('rejects a payload that breaks the contract before anything is written', async () => {
      const outbox = t.app.get<Outbox>(OUTBOX);
      await expect(t.dataSource.transaction((em) => outbox.add(em, 'diagnostics.probe.v1', { seq: -5, runId: '' }))).rejects.toThrow();
    });

    it('delivers a burst exactly once and an idempotent re-add is ignored', async () => {
      const outbox = t.app.get<Outbox>(OUTBOX);
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) ids.push(await t.dataSource.transaction((em) => outbox.add(em, 'diagnostics.probe.v1', { seq: i, runId: 'burst' })));
      await t.dataSource.transaction((em) => outbox.add(em, 'diagnostics.probe.v1', { seq: 0, runId: 'burst' }, { id: ids[0] }));
      await t.drain();
      expect(await probeCount(t.dataSource, 'burst')).toEqual({ total: 50, distinct: 50 });
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM outbox_delivery WHERE status <> 'delivered'`);
      expect(n).toBe(0);
    });

    it('answers typed RPCs, streams, and validates requests', async () => {
      const rpc = t.app.get<RpcClient>(RPC_CLIENT);
      expect((await rpc.call('diagnostics.echo.v1', { message: 'allin p’unchaw' })).message).toBe('allin p’unchaw');
      expect(await lastValueFrom(rpc.stream('diagnostics.count.v1', { n: 3 }).pipe(toArray()))).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
      await expect(rpc.call('diagnostics.echo.v1', { message: 42 as unknown as string })).rejects.toMatchObject({ status: 400 });
    });
  });

  describe('NATS transport (the broker on this machine)', () => {
    it('delivers events and answers RPCs across two apps on one database', async () => {
      const producer = await createTestApp({
        schemas: [diagnosticsSchema],
        consumers: [],
        transport: 'nats',
        env: { NATS_URL: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222' },
      });
      const consumer = await createTestApp({
        schemas: [diagnosticsSchema],
        consumers: ['probe'],
        imports: [DiagnosticsModule],
        transport: 'nats',
        database: producer.db,
        env: { NATS_URL: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222' },
      });
      try {
        const runId = `nats-${Date.now()}`;
        const outbox = producer.app.get<Outbox>(OUTBOX);
        for (let i = 0; i < 20; i++) await producer.dataSource.transaction((em) => outbox.add(em, 'diagnostics.probe.v1', { seq: i, runId }));
        await producer.drain();
        expect(await probeCount(producer.dataSource, runId)).toEqual({ total: 20, distinct: 20 });
        const rpc = producer.app.get<RpcClient>(RPC_CLIENT);
        const res = await rpc.call('diagnostics.echo.v1', { message: 'over nats' });
        expect(res).toEqual({ message: 'over nats', servedBy: String(process.pid) });
        expect(await lastValueFrom(rpc.stream('diagnostics.count.v1', { n: 4 }).pipe(toArray()))).toHaveLength(4);
      } finally {
        await consumer.close({ keepDatabase: true });
        await producer.close();
      }
    });
  });
});
