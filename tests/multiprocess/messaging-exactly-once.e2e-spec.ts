import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, waitFor, type TestDatabase } from '@gaia/testing';
import { diagnosticsSchema } from '@gaia/shared/messaging';

const root = join(__dirname, '../..');
const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

function startProbe(db: TestDatabase, env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
  // The built fixture (npm test builds first: `node tools/build.mjs --backend`).
  const child = spawn(process.execPath, [join(root, 'dist/out/tests/multiprocess/fixtures/probe-service.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      MESSAGING_TRANSPORT: 'nats',
      MESSAGING_NAMESPACE: db.name,
      NATS_URL,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OUTBOX_POLL_MS: '200',
      DATA_DIR: join(root, 'tmp/multiprocess-data'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('PROBE_READY') && resolve());
    child.once('exit', (code) => reject(new Error(`probe process exited early (${code}): ${err.slice(-2000)}`)));
  });
  return { child, ready };
}

async function counts(db: TestDatabase, runId: string) {
  const c = new Client({ connectionString: db.url });
  await c.connect();
  try {
    const [applied] = (
      await c.query(
        `SELECT count(*)::int AS total, count(DISTINCT seq)::int AS distinct_seq, count(DISTINCT event_id)::int AS distinct_events, count(DISTINCT applied_by)::int AS processes FROM diagnostics_probe_applied WHERE run_id = $1`,
        [runId],
      )
    ).rows;
    const [backlog] = (
      await c.query(
        `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'dead')::int AS dead FROM outbox_delivery`,
      )
    ).rows;
    const [inbox] = (await c.query(`SELECT count(*)::int AS n FROM inbox_message WHERE consumer = 'probe'`)).rows;
    return { ...applied, ...backlog, inbox: inbox.n };
  } finally {
    await c.end();
  }
}

describe('events across processes over the real NATS', () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [diagnosticsSchema] });
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await db.drop();
  });

  it('applies each of 1,000 events exactly once although the consumer is SIGKILLed mid-burst', async () => {
    const runId = `burst-${Date.now()}`;
    const consumer1 = startProbe(db, { PROBE_CONSUMER: '1', PROBE_NAME: 'consumer-1' });
    children.push(consumer1.child);
    await consumer1.ready;
    const producer = startProbe(db, { PROBE_RUN_ID: runId, PROBE_COUNT: '1000', PROBE_NAME: 'producer' });
    children.push(producer.child);

    // Kill the consumer once it is in the middle of the burst.
    await waitFor(
      () => counts(db, runId),
      (c) => c.total >= 150,
      { timeoutMs: 90_000, what: 'first applied events' },
    );
    consumer1.child.kill('SIGKILL');
    await new Promise((r) => consumer1.child.once('exit', r));
    await producer.ready;
    const atKill = await counts(db, runId);
    expect(atKill.total).toBeLessThan(1000);

    const consumer2 = startProbe(db, { PROBE_CONSUMER: '1', PROBE_NAME: 'consumer-2' });
    children.push(consumer2.child);
    await consumer2.ready;
    const final = await waitFor(
      () => counts(db, runId),
      (c) => c.pending === 0 && c.total >= 1000,
      { timeoutMs: 150_000, what: 'all events applied' },
    );

    expect(final).toMatchObject({ total: 1000, distinct_seq: 1000, distinct_events: 1000, dead: 0, pending: 0, inbox: 1000 });
    expect(final.processes).toBe(2); // both consumer incarnations applied part of the burst
    producer.child.kill('SIGTERM');
    consumer2.child.kill('SIGTERM');
  });
});
