/**
 * The load run of the multi-replica layout: every service as its own process, 2 replicas each, over the
 * local NATS, Redis and Postgres. 200 uploads and 2,000 translations go through both gateways; every
 * task completes once, no event is applied twice, usage totals are exact, and progress reaches the
 * right browser socket (each owner listens on the other gateway than the one it uploaded to).
 */
import { Client } from 'pg';
import { io, type Socket } from 'socket.io-client';
import { MAX_UPLOADS_IN_FLIGHT_PER_CALLER } from '@gaia/gateway/feature';
import { createTestDatabase, syntheticCorpus, waitFor, type TestDatabase } from '@gaia/testing';
import { migrate, startServiceCluster, type ServiceCluster } from './support/service-cluster';

const USERS = 20;
const UPLOADS_PER_USER = 10; // 200 uploads
const TRANSLATIONS = 2000;
const CONCURRENCY = 16;

interface Owner {
  email: string;
  cookie: string;
  csrf: string;
  uid: string;
  uploadGateway: string;
  socket: Socket;
  progress: { task_id: string; status: string; model_id: string }[];
  tasks: { taskId: string; modelId: string }[];
}

async function pool<T>(items: T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let i = next++; i < items.length; i = next++) await fn(items[i], i);
    }),
  );
}

async function signUp(gateway: string, email: string): Promise<{ cookie: string; csrf: string; uid: string }> {
  const res = await fetch(`${gateway}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', fullName: email.split('@')[0] }),
  });
  expect(res.status).toBeLessThan(300);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  const csrf = cookies.find((c) => c.startsWith('gaia_csrf='))!.slice('gaia_csrf='.length);
  return { cookie: cookies.join('; '), csrf, uid: ((await res.json()) as { user: { uid: string } }).user.uid };
}

describe('multi-replica load: 200 uploads and 2,000 translations through two gateways', () => {
  let db: TestDatabase;
  let cluster: ServiceCluster;
  const owners: Owner[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ prefix: 'gaia_load' });
    await migrate(db.url);
    // 12 processes share one Postgres (max_connections 100 here): keep each pool small.
    cluster = await startServiceCluster({ databaseUrl: db.url, replicas: 2, env: { DATABASE_POOL_SIZE: '4' } });
  }, 240_000);

  afterAll(async () => {
    for (const o of owners) o.socket?.close();
    await cluster?.stop();
    await db?.drop();
  });

  it('completes every task once, applies every event once, counts usage exactly, and routes progress to the owner', async () => {
    const [g1, g2] = cluster.gateways();
    for (let u = 0; u < USERS; u++) {
      const uploadGateway = u % 2 ? g2 : g1;
      const listenGateway = u % 2 ? g1 : g2;
      const email = `load-${u}-${Date.now().toString(36)}@example.com`;
      const s = await signUp(uploadGateway, email);
      const socket = io(listenGateway, { transports: ['websocket'], extraHeaders: { cookie: s.cookie }, reconnection: true });
      const owner: Owner = { email, ...s, uploadGateway, socket, progress: [], tasks: [] };
      socket.on('task_progress', (t: { id: string; status: string; model_id: string }) =>
        owner.progress.push({ task_id: t.id, status: t.status, model_id: t.model_id }),
      );
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      owners.push(owner);
    }

    // 200 uploads, 16 at a time, alternating gateways by owner: owners in parallel, each with at most the gateway's
    // per-account number of uploads in flight (more are refused 429 before their body is read)
    const uploads = owners.flatMap((o, u) => Array.from({ length: UPLOADS_PER_USER }, (_, k) => ({ o, seed: u * 100 + k })));
    const upload = async ({ o, seed }: { o: Owner; seed: number }): Promise<void> => {
      const pairs = syntheticCorpus(40 + (seed % 20), seed).map(({ source, target }) => ({ source, target }));
      const form = new FormData();
      form.set('src_lang', 'es');
      form.set('tgt_lang', 'qx');
      form.set('custom_prompt', `load agent ${seed}`);
      form.append('files', new Blob([JSON.stringify(pairs)], { type: 'application/json' }), `pairs-${seed}.json`);
      const res = await fetch(`${o.uploadGateway}/api/documents/process/`, {
        method: 'POST',
        headers: { cookie: o.cookie, 'x-csrf-token': o.csrf },
        body: form,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { task_id: string; model_id: string };
      o.tasks.push({ taskId: body.task_id, modelId: body.model_id });
    };
    await pool(owners, CONCURRENCY / MAX_UPLOADS_IN_FLIGHT_PER_CALLER, (o) =>
      pool(
        uploads.filter((x) => x.o === o),
        MAX_UPLOADS_IN_FLIGHT_PER_CALLER,
        upload,
      ),
    );

    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      await waitFor(
        async () =>
          (
            await pg.query(
              `SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS done, count(*) FILTER (WHERE status = 'FAILED')::int AS failed FROM ingestion_task`,
            )
          ).rows[0],
        (r) => r.done + r.failed >= uploads.length,
        { timeoutMs: 600_000, intervalMs: 500, what: '200 tasks to finish' },
      );

      // Every translation path is metered (the Free plan's 10 a day include the session): the load users are on Starter.
      await pg.query(`INSERT INTO billing_plan (user_id, plan, changed_at) SELECT unnest($1::text[]), 'starter', now()`, [owners.map((o) => o.uid)]);
      // 2,000 session translations, alternating gateways, spread over every agent.
      const agents = owners.flatMap((o) => o.tasks.map((t) => ({ o, modelId: t.modelId })));
      const requests = Array.from({ length: TRANSLATIONS }, (_, i) => agents[i % agents.length]);
      const perOwner = new Map<string, number>();
      let ok = 0;
      await pool(requests, CONCURRENCY, async ({ o, modelId }, i) => {
        const gateway = i % 2 ? g2 : g1;
        const res = await fetch(`${gateway}/api/translate/`, {
          method: 'POST',
          headers: { cookie: o.cookie, 'x-csrf-token': o.csrf, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'El perro bebe agua en el campo.', model_id: modelId, src_lang: 'es', tgt_lang: 'qx', stream: false }),
        });
        const body = (await res.json()) as { success?: boolean; data?: { translation: string }; error?: string };
        expect({ status: res.status, error: body.error }).toEqual({ status: 200, error: undefined });
        expect(body.data?.translation.length).toBeGreaterThan(0);
        ok++;
        perOwner.set(o.uid, (perOwner.get(o.uid) ?? 0) + 1);
      });
      expect(ok).toBe(TRANSLATIONS);

      // Every task completed exactly once.
      const tasks = (await pg.query(`SELECT status, count(*)::int AS n FROM ingestion_task GROUP BY status`)).rows;
      expect(tasks).toEqual([{ status: 'COMPLETED', n: 200 }]);
      const learned = (
        await pg.query(`SELECT payload->>'agentId' AS agent, count(*)::int AS n FROM outbox_event WHERE topic = 'retrieval.agent-learned.v1' GROUP BY 1`)
      ).rows;
      expect(learned).toHaveLength(200);
      expect(learned.every((r: { n: number }) => r.n === 1)).toBe(true);

      // Every event delivered, none dead, and each consumer group applied each event at most once.
      await waitFor(
        async () => (await pg.query(`SELECT count(*)::int AS n FROM outbox_delivery WHERE status = 'pending'`)).rows[0].n,
        (n) => n === 0,
        {
          timeoutMs: 120_000,
          what: 'outbox to drain',
        },
      );
      const deliveries = (await pg.query(`SELECT status, count(*)::int AS n FROM outbox_delivery GROUP BY status`)).rows;
      expect(deliveries).toEqual([{ status: 'delivered', n: expect.any(Number) }]);
      const [{ delivered, applied }] = (
        await pg.query(`SELECT (SELECT count(*) FROM outbox_delivery)::int AS delivered, (SELECT count(*) FROM inbox_message)::int AS applied`)
      ).rows;
      expect(applied).toBe(delivered);

      // Usage totals are exact, per owner.
      for (const o of owners) {
        const summary = (await (await fetch(`${g1}/api/usage/summary`, { headers: { cookie: o.cookie } })).json()) as { total_requests: number };
        expect({ owner: o.email, total: summary.total_requests }).toEqual({ owner: o.email, total: perOwner.get(o.uid) ?? 0 });
      }

      // Progress reached each owner's socket (on the other gateway), only for that owner's tasks, ending COMPLETED.
      for (const o of owners) {
        const mine = new Set(o.tasks.map((t) => t.taskId));
        await waitFor(
          async () => o.progress.filter((p) => p.status === 'COMPLETED').length,
          (n) => n >= mine.size,
          { timeoutMs: 30_000, what: `progress for ${o.email}` },
        );
        expect(o.progress.every((p) => mine.has(p.task_id))).toBe(true);
        expect(new Set(o.progress.filter((p) => p.status === 'COMPLETED').map((p) => p.task_id))).toEqual(mine);
      }
    } finally {
      await pg.end();
    }
  }, 1_500_000);
});
