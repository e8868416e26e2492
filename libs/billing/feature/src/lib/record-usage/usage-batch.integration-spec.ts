import { randomUUID } from 'node:crypto';
import type { UsageRecordedV1 } from '@gaia/contracts';
import { billingSchema } from '@gaia/billing/data-access';
import { OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, type TestApp } from '@gaia/testing';
import { BillingModule } from '../billing.module';

/** Batched usage (usage.recorded-batch.v1, the translation service's group commit): every record once per request id. */
describe('usage batches on the real Postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ schemas: [billingSchema], consumers: ['billing'], imports: [BillingModule.forRoot()] });
  });
  afterAll(() => t?.close());

  const usage = (keyId: string): UsageRecordedV1 => ({
    requestId: randomUUID(),
    keyId,
    userId: 'batch-user',
    agentId: 'agent-1',
    sourceWords: 3,
    inputTokens: 10,
    outputTokens: 5,
    engine: 'builtin',
    fallbackReason: null,
    latencyMs: 4,
    occurredAt: new Date().toISOString(),
  });
  const emit = (fn: (o: Outbox, em: Parameters<Outbox['add']>[0]) => Promise<string>) => t.dataSource.transaction((em) => fn(t.app.get<Outbox>(OUTBOX), em));

  it('stores each record of a batch once, also when a record came alone before or the batch is emitted twice', async () => {
    const keyId = randomUUID();
    const records = Array.from({ length: 5 }, () => usage(keyId));
    await emit((o, em) => o.add(em, 'usage.recorded.v1', records[0]));
    await emit((o, em) => o.add(em, 'usage.recorded-batch.v1', { records }));
    await emit((o, em) => o.add(em, 'usage.recorded-batch.v1', { records: [...records.slice(2), usage(keyId)] }));
    await t.drain();
    const rows: { request_id: string; words: number; user_id: string }[] = await t.dataSource.query(
      `SELECT request_id, words, user_id FROM billing_usage WHERE key_id = $1`,
      [keyId],
    );
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.request_id)).size).toBe(6);
    expect(rows.every((r) => r.words === 3 && r.user_id === 'batch-user')).toBe(true);
  });

  it('billing.record-usage.v1 stores a batch directly, once per request id (a retry after a lost answer, then its event, count once)', async () => {
    const keyId = randomUUID();
    const records = Array.from({ length: 4 }, () => usage(keyId));
    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    expect(await rpc.call('billing.record-usage.v1', { records })).toEqual({ recorded: 4 });
    expect(await rpc.call('billing.record-usage.v1', { records: records.slice(1) })).toEqual({ recorded: 0 });
    await emit((o, em) => o.add(em, 'usage.recorded.v1', records[0]));
    await t.drain();
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM billing_usage WHERE key_id = $1`, [keyId]);
    expect(n).toBe(4);
  });
});
