import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@gaia/shared/database';
import { createTestDatabase, waitFor, type TestDatabase } from '@gaia/testing';
import { InstanceLiveness, JobRunner, MessagingActivity, OutboxRelay, PostgresJobQueue, PostgresOutboxStore } from '@gaia/shared/messaging';
import { HOLD_JOB_KIND } from './fixtures/lease-holder.kind';

/**
 * kill -9 of a process in the middle of a job and of an outbox delivery (real Postgres, two processes):
 * the restarted process resumes both at once — it does not wait for the 120 s job lease or the 60 s
 * delivery lease — because the dead process's liveness lock went with its connection. A live holder's
 * leases are never taken. (Targets: resumed within 10 s, event visible within 5 s; the timeouts below are
 * generous deadlines, the measured delays are in bench/crash-resume.)
 */
const ROOT = resolve(__dirname, '../..');
const MAIN = join(ROOT, 'tests/integration/fixtures/lease-holder.main.ts');
const TAKEOVER_DEADLINE_MS = 20_000;

function startHolder(url: string): { child: ChildProcess; seen: Set<string>; ready: Promise<void> } {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', MAIN], {
    cwd: ROOT,
    env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'), DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = new Set<string>();
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const ready = new Promise<void>((ok, fail) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += String(d);
      for (const line of buf.split('\n').slice(0, -1)) {
        if (line.startsWith('READY')) ok();
        else if (line) seen.add(line);
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => fail(new Error(`lease holder exited (${code}): ${err}`)));
  });
  return { child, seen, ready };
}

describe('leases of a killed process are taken over at once (real Postgres, two processes)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let holder: ReturnType<typeof startHolder> | undefined;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [] });
    ds = createDataSource({ url: db.url, schemas: [], poolSize: 4 });
    await ds.initialize();
  });
  afterAll(async () => {
    if (holder?.child.exitCode === null) holder.child.kill('SIGKILL');
    for (const c of cleanup.reverse()) await c();
    await ds?.destroy();
    await db?.drop();
  });

  async function addEvent(): Promise<string> {
    const id = randomUUID();
    await ds.transaction(async (em) => {
      const [e] = await em.query(`INSERT INTO outbox_event (id, topic, key, payload) VALUES ($1, 'diagnostics.probe.v1', 'k', $2) RETURNING seq`, [
        id,
        JSON.stringify({ seq: 1, runId: 'takeover' }),
      ]);
      await em.query(`INSERT INTO outbox_delivery (event_id, subscriber, seq) VALUES ($1, 'probe', $2)`, [id, e.seq]);
    });
    return id;
  }

  it('resumes the job and redelivers the event after kill -9 and a restart, without waiting for the leases', async () => {
    holder = startHolder(db.url);
    await holder.ready;
    const jobId = await new PostgresJobQueue().enqueue(ds.manager, HOLD_JOB_KIND, { n: 1 });
    const eventId = await addEvent();
    await waitFor(
      async () => holder!.seen,
      (s) => s.has(`JOB ${jobId}`) && s.has(`DELIVERY ${eventId}`),
      { what: 'the holder to lease the job and the delivery' },
    );

    // The "restarted" process: its own liveness, job runner and relay.
    const liveness = new InstanceLiveness(db.url);
    await liveness.start();
    const activity = new MessagingActivity();
    const resumed: string[] = [];
    const delivered: string[] = [];
    const jobs = new JobRunner(ds, activity, { pollMs: 100, concurrency: 2 }, liveness);
    jobs.register(HOLD_JOB_KIND, async (_p, ctx) => void resumed.push(ctx.jobId));
    const store = new PostgresOutboxStore(ds, liveness);
    const relay = new OutboxRelay(store, { deliver: async (_s, env) => void delivered.push(env.id) }, activity, { pollMs: 100 });
    cleanup.push(async () => {
      await relay.stop();
      await jobs.stop();
      await liveness.stop();
    });

    // While the holder lives, its leases are its own.
    expect(await jobs.claim()).toBeNull();
    expect(await store.claim(10, 60_000)).toEqual([]);

    holder.child.kill('SIGKILL');
    await new Promise((r) => holder!.child.once('exit', r));
    jobs.start();
    relay.start();
    await waitFor(
      async () => ({ resumed: [...resumed], delivered: [...delivered] }),
      (s) => s.resumed.length > 0 && s.delivered.length > 0,
      {
        timeoutMs: TAKEOVER_DEADLINE_MS,
        intervalMs: 20,
        what: 'the job resumed and the event redelivered by the restarted process',
      },
    );
    await waitFor(
      async () => (await ds.query(`SELECT status FROM job WHERE id = $1`, [jobId]))[0].status,
      (s) => s === 'done',
      { what: 'job done' },
    );
    await waitFor(
      async () => (await ds.query(`SELECT status FROM outbox_delivery WHERE event_id = $1`, [eventId]))[0].status,
      (s) => s === 'delivered',
      { what: 'delivery recorded' },
    );
    expect(resumed).toEqual([jobId]);
    expect(delivered).toEqual([eventId]);
  });
});
