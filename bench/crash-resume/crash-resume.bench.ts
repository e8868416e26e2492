/**
 * Crash-resume benchmark: after kill -9 of a process that holds a job (lease 120 s) and an outbox delivery
 * (lease 60 s), how long until a restarted process runs the job again and the event is delivered (what makes a
 * usage row visible). Side by side in one run: with liveness locks (the platform's behaviour) and a
 * lease-only baseline (the holder without its liveness lock: what happened before).
 *
 *   npx jest -c bench/crash-resume/jest.config.js      (BENCH_ROUNDS=5, BENCH_BASELINE=1; writes bench/results/crash-resume.json)
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchMachine } from '../machine.cjs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@gaia/shared/database';
import { InstanceLiveness, JobRunner, MessagingActivity, OutboxRelay, PostgresJobQueue, PostgresOutboxStore } from '@gaia/shared/messaging';
import { createTestDatabase, waitFor, type TestDatabase } from '@gaia/testing';

const ROOT = join(__dirname, '../..');
const MAIN = join(ROOT, 'tests/integration/fixtures/lease-holder.main.ts');
const HOLD_JOB_KIND = 'test.hold';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const BASELINE = process.env['BENCH_BASELINE'] !== '0';
const POLL_MS = 1000; // the platform's default OUTBOX_POLL_MS

interface Round {
  jobResumedMs: number;
  eventDeliveredMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function round(db: TestDatabase, ds: DataSource, liveness: boolean): Promise<Round> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', MAIN], {
    cwd: ROOT,
    env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'), DATABASE_URL: db.url, LIVENESS: liveness ? 'on' : 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  await waitFor(
    async () => out,
    (o) => o.includes('READY'),
    { timeoutMs: 60_000, what: 'holder ready' },
  );
  const jobId = await new PostgresJobQueue().enqueue(ds.manager, HOLD_JOB_KIND, {});
  const eventId = randomUUID();
  await ds.transaction(async (em) => {
    const [e] = await em.query(
      `INSERT INTO outbox_event (id, topic, key, payload) VALUES ($1, 'diagnostics.probe.v1', 'k', '{"seq":1,"runId":"bench"}') RETURNING seq`,
      [eventId],
    );
    await em.query(`INSERT INTO outbox_delivery (event_id, subscriber, seq) VALUES ($1, 'probe', $2)`, [eventId, e.seq]);
  });
  await waitFor(
    async () => out,
    (o) => o.includes(`JOB ${jobId}`) && o.includes(`DELIVERY ${eventId}`),
    { timeoutMs: 30_000, what: 'holder leased both' },
  );

  const me = new InstanceLiveness(db.url);
  await me.start();
  const activity = new MessagingActivity();
  const times: Partial<Round> = {};
  const exited = new Promise((r) => child.once('exit', r));
  const t0 = performance.now();
  child.kill('SIGKILL');
  await exited;
  const jobs = new JobRunner(ds, activity, { pollMs: POLL_MS, concurrency: 2 }, me);
  jobs.register(HOLD_JOB_KIND, async () => void (times.jobResumedMs ??= Math.round(performance.now() - t0)));
  const relay = new OutboxRelay(
    new PostgresOutboxStore(ds, me),
    { deliver: async () => void (times.eventDeliveredMs ??= Math.round(performance.now() - t0)) },
    activity,
    { pollMs: POLL_MS },
  );
  jobs.start();
  relay.start();
  await waitFor(
    async () => ({ ...times }),
    (t) => t.jobResumedMs !== undefined && t.eventDeliveredMs !== undefined,
    { timeoutMs: 200_000, intervalMs: 10, what: 'takeover' },
  );
  await relay.stop();
  await jobs.stop();
  await me.stop();
  return times as Round;
}

describe('crash resume', () => {
  it('measures takeover after kill -9: liveness locks vs lease expiry', async () => {
    const db = await createTestDatabase({ schemas: [] });
    const ds = createDataSource({ url: db.url, schemas: [], poolSize: 4 });
    await ds.initialize();
    try {
      const withLiveness: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) withLiveness.push(await round(db, ds, true));
      const leaseOnly = BASELINE ? [await round(db, ds, false)] : [];
      const summary = (rs: Round[]) =>
        rs.length
          ? { rounds: rs, medianJobResumedMs: median(rs.map((r) => r.jobResumedMs)), medianEventDeliveredMs: median(rs.map((r) => r.eventDeliveredMs)) }
          : null;
      const live = summary(withLiveness)!;
      const base = summary(leaseOnly);
      const result = {
        benchmark: 'crash resume: kill -9 of the holder of a job (lease 120 s) and an outbox delivery (lease 60 s), then a restarted process',
        date: new Date().toISOString(),
        machine: benchMachine(),
        pollMs: POLL_MS,
        withLivenessLocks: live,
        leaseOnlyBaseline: base,
        ratio: base
          ? {
              job: Number((base.medianJobResumedMs / live.medianJobResumedMs).toFixed(0)),
              event: Number((base.medianEventDeliveredMs / live.medianEventDeliveredMs).toFixed(0)),
            }
          : null,
      };
      mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
      writeFileSync(join(ROOT, 'bench/results/crash-resume.json'), `${JSON.stringify(result, null, 2)}\n`);
      console.log(JSON.stringify(result, null, 2));
    } finally {
      await ds.destroy();
      await db.drop();
    }
  }, 900_000);
});
