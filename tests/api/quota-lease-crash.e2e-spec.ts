import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { UsageRecordedV1 } from '@gaia/contracts';
import { billingSchema } from '@gaia/billing/data-access';
import { LEASE_MAX_BLOCK } from '@gaia/billing/feature';
import { OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, createTestDatabase, waitFor, type TestApp, type TestDatabase } from '@gaia/testing';

const ROOT = join(__dirname, '../..');
const WORKER = join(ROOT, 'dist/out/tests/api/fixtures/billing-lease-worker.js');
const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
const KEY_LIMIT = 120;

function startWorker(db: TestDatabase, dataDir: string): Promise<ChildProcess> {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: build first (node tools/build.mjs --backend)`);
  const child = spawn(process.execPath, [WORKER], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.url,
      MESSAGING_TRANSPORT: 'nats',
      MESSAGING_NAMESPACE: db.name,
      NATS_URL,
      MIGRATIONS_RUN: 'false',
      DATA_DIR: join(dataDir, 'worker'),
      OUTBOX_POLL_MS: '200',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (/BILLING_READY/.test(out)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`billing worker exited early (${code}): ${out.slice(-3000)}`)));
  });
}

const exited = (c: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill(signal);
  });

/**
 * Quota leases and a crash (issue #13): the billing process is killed (SIGKILL) while it holds a reserved block
 * and authorizations it has not written yet. Afterwards: never more than the key's limit allowed (distinct
 * requests, retries included), each usage record stored once per request id, and what the crash lost is at most
 * one block of units (refused early that day, never granted twice).
 */
describe('quota leases: a billing process killed mid-batch', () => {
  let db: TestDatabase;
  let caller: TestApp;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [billingSchema], prefix: 'gaia_lease_crash' });
    // The caller side only (no billing module): its RPCs go over NATS to the worker, its events to the worker's consumer.
    caller = await createTestApp({ schemas: [billingSchema], consumers: [], transport: 'nats', env: { NATS_URL }, database: db });
  });
  afterAll(async () => {
    if (worker) await exited(worker, 'SIGTERM');
    await caller?.close();
  });

  it('never over the limit, nothing counted twice, at most one block lost', async () => {
    const rpc = caller.app.get<RpcClient>(RPC_CLIENT);
    const userId = randomUUID();
    const keyId = randomUUID();
    await caller.dataSource.query(`INSERT INTO billing_plan (user_id, plan, changed_at) VALUES ($1, 'enterprise', now())`, [userId]);
    const authorize = (requestId: string) =>
      rpc.call('billing.authorize.v1', { requestId, keyId, userId, channel: 'api', keyRateLimit: KEY_LIMIT }).then(
        () => true,
        (e: { status: number }) => {
          if (e.status !== 429) throw e;
          return false;
        },
      );
    const emitUsage = (requestId: string) => {
      const u: UsageRecordedV1 = {
        requestId,
        keyId,
        userId,
        agentId: 'agent-1',
        sourceWords: 2,
        inputTokens: 3,
        outputTokens: 4,
        engine: 'builtin',
        fallbackReason: null,
        latencyMs: 5,
        occurredAt: new Date().toISOString(),
      };
      return caller.dataSource.transaction((em) => caller.app.get<Outbox>(OUTBOX).add(em, 'usage.recorded.v1', u));
    };
    const allowed = new Set<string>();

    worker = await startWorker(db, caller.dataDir);
    const before = Array.from({ length: 30 }, () => randomUUID());
    for (const id of before) if (await authorize(id)) allowed.add(id);
    expect(allowed.size).toBe(before.length);
    for (const id of before) await emitUsage(id);
    // Mid-batch: the worker has written the first (exact-path) authorization only; the rest sit in its memory.
    const [{ n: writtenBeforeKill }] = await caller.dataSource.query(`SELECT count(*)::int AS n FROM billing_authorization WHERE key_id = $1`, [keyId]);
    expect(writtenBeforeKill).toBeLessThan(before.length);
    await exited(worker, 'SIGKILL');

    const counted = async () =>
      (await caller.dataSource.query(`SELECT COALESCE(sum(count), 0)::int AS n FROM billing_counter WHERE subject = $1`, [`key:${keyId}:requests`]))[0]
        .n as number;
    expect(await counted()).toBeLessThanOrEqual(KEY_LIMIT);

    worker = await startWorker(db, caller.dataDir);
    // Clients retry what they never got an answer for (here: everything again), then go on until refused.
    for (const id of before) await authorize(id);
    for (const id of before.slice(0, 10)) await emitUsage(id); // re-emitted usage after the crash
    for (let i = 0; i < 2 * KEY_LIMIT; i++) {
      const id = randomUUID();
      if (!(await authorize(id))) break;
      allowed.add(id);
      await emitUsage(id);
    }
    expect(allowed.size).toBeLessThanOrEqual(KEY_LIMIT);
    expect(allowed.size).toBeGreaterThanOrEqual(KEY_LIMIT - LEASE_MAX_BLOCK);
    expect(await counted()).toBeLessThanOrEqual(KEY_LIMIT);

    // Usage: once per request id, every allowed request recorded.
    const usageRows = () =>
      caller.dataSource.query(`SELECT request_id FROM billing_usage WHERE key_id = $1`, [keyId]) as Promise<Array<{ request_id: string }>>;
    const rows = await waitFor(usageRows, (r) => r.length >= allowed.size, { what: 'usage of every allowed request', timeoutMs: 60_000 });
    expect(rows).toHaveLength(allowed.size);
    expect(new Set(rows.map((r) => r.request_id))).toEqual(allowed);

    // A clean stop writes what the second worker holds and gives its unused units back.
    await exited(worker, 'SIGTERM');
    worker = undefined;
    expect(await counted()).toBeLessThanOrEqual(KEY_LIMIT);
    const [{ n: written }] = await caller.dataSource.query(
      `SELECT count(DISTINCT request_id)::int AS n FROM billing_authorization WHERE key_id = $1 AND status = 'allowed'`,
      [keyId],
    );
    expect(written).toBeLessThanOrEqual(allowed.size);
  });
});
