import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from 'pg';
import { createTestDatabase, syntheticCorpus, waitFor, type TestDatabase } from '@gaia/testing';
import { signUp } from '../api/support/api-app';

const root = join(__dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Samples of the Prometheus text format: `name{labels} value` → value, keyed by `name{labels}` as written. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}
/** The value of the sample of `name` whose labels include every `labels` pair (undefined when none). */
function sample(m: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const [k, v] of m) {
    const brace = k.indexOf('{');
    if ((brace < 0 ? k : k.slice(0, brace)) !== name) continue;
    if (Object.entries(labels).every(([l, val]) => k.includes(`${l}="${val}"`))) return v;
  }
  return undefined;
}

/** Prometheus /metrics of the built platform process, read after real traffic. */
describe('metrics: /metrics of a running process after traffic', () => {
  let db: TestDatabase;
  let child: ChildProcess;
  let url = '';
  let metricsUrl = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'gaia-metrics-'));

  beforeAll(async () => {
    db = await createTestDatabase({ prefix: 'gaia_metrics' });
    const port = await freePort();
    let metricsPort = await freePort();
    while (metricsPort === port) metricsPort = await freePort();
    url = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    child = spawn(process.execPath, [join(root, 'dist/apps/platform/main.js')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        MESSAGING_TRANSPORT: 'inprocess',
        DATABASE_POOL_SIZE: '5',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`platform exited with code ${child.exitCode}`);
        return fetch(`${url}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
      },
      (s) => s === 200,
      { timeoutMs: 120_000, intervalMs: 200, what: 'platform /readyz' },
    );
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves metrics only on METRICS_PORT, never on the public port a stranger reaches', async () => {
    // The public port answers /metrics like any unknown path (the web app's page, or 404): no metric in it.
    const publicPort = await (await fetch(`${url}/metrics`)).text();
    expect(publicPort).not.toContain('# HELP');
    expect(publicPort).not.toContain('gaia_');
    expect((await fetch(metricsUrl)).status).toBe(200);
  });

  it('reports request latency per route, translations by engine and outcome, the agent cache, queue depth, outbox lag and dead letters', async () => {
    const u = await signUp(url, 'metrics');
    const corpus = syntheticCorpus(60, 3);
    const upload = await u.agent
      .post('/api/documents/process/')
      .set('X-CSRF-Token', u.csrf)
      .field('src_lang', 'es')
      .field('tgt_lang', 'xx')
      .field('custom_prompt', 'metrics')
      .attach('files', Buffer.from(corpus.map((p) => `${p.source}\t${p.target}`).join('\n')), 'pairs.tsv')
      .expect(200);
    await waitFor(
      () => u.agent.get(`/api/documents/status?task_id=${upload.body.task_id}`).then((r) => r.body.task?.status as string),
      (s) => s === 'COMPLETED',
      { timeoutMs: 120_000, intervalMs: 200, what: 'agent learned' },
    );
    const key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'metrics' }).expect(200)).body.api_key as string;
    for (const p of corpus.slice(0, 3)) {
      await request(url)
        .post('/api/translate/')
        .set('X-API-Key', key)
        .send({ text: p.source, model_id: upload.body.model_id, src_lang: 'es', tgt_lang: 'xx', stream: false })
        .expect(200);
    }
    await request(url).get('/api/agents/no-such-agent').expect(404);

    // A dead letter and a queued ingestion job, written as the messaging layer would leave them.
    const sql = new Client({ connectionString: db.url });
    await sql.connect();
    try {
      const eventId = randomUUID();
      await sql.query(
        `INSERT INTO outbox_event (id, topic, key, payload, created_at) VALUES ($1, 'diagnostics.probe.v1', 'm', '{"seq":1,"runId":"m"}', now() - interval '90 seconds')`,
        [eventId],
      );
      await sql.query(
        `INSERT INTO outbox_delivery (event_id, subscriber, seq, status, attempts) SELECT id, 'probe', seq, 'dead', 25 FROM outbox_event WHERE id = $1`,
        [eventId],
      );
      await sql.query(`INSERT INTO job (id, kind, payload, run_after) VALUES ($1, 'ingestion.process-task', '{"taskId":"later"}', now() + interval '1 day')`, [
        randomUUID(),
      ]);
    } finally {
      await sql.end();
    }

    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const m = parse(await res.text());
    expect(sample(m, 'gaia_http_request_duration_seconds_count', { method: 'POST', route: '/api/auth/signup', status: '201' })).toBe(1);
    expect(sample(m, 'gaia_http_request_duration_seconds_count', { method: 'POST', route: '/api/translate', status: '200' })).toBe(3);
    expect(sample(m, 'gaia_http_request_duration_seconds_count', { method: 'GET', route: '/api/agents/:id', status: '404' })).toBe(1);
    expect(sample(m, 'gaia_http_request_duration_seconds_bucket', { route: '/api/translate', le: '+Inf' })).toBe(3);
    expect(sample(m, 'gaia_translations_total', { engine: 'builtin', outcome: 'success' })).toBe(3);
    expect(sample(m, 'gaia_agent_cache_misses_total')).toBe(1);
    expect(sample(m, 'gaia_agent_cache_hits_total')).toBe(2);
    expect(sample(m, 'gaia_agent_cache_evictions_total')).toBe(0);
    expect(sample(m, 'gaia_agent_cache_entries')).toBe(1);
    expect(sample(m, 'gaia_agent_cache_bytes')).toBeGreaterThan(0);
    expect(sample(m, 'gaia_job_queue_depth', { kind: 'ingestion.process-task', status: 'pending' })).toBe(1);
    expect(sample(m, 'gaia_outbox_dead_letters', { subscriber: 'probe' })).toBe(1);
    // No pending delivery for that subscriber: no lag.
    expect(sample(m, 'gaia_outbox_lag_seconds', { subscriber: 'probe' })).toBe(0);
    expect(sample(m, 'gaia_process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});
