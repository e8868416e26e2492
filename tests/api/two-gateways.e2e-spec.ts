import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { AgentsModule } from '@gaia/agents/feature';
import { agentsSchema } from '@gaia/agents/data-access';
import { billingSchema } from '@gaia/billing/data-access';
import { identitySchema } from '@gaia/identity/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '@gaia/testing';
import { cookieValue } from './support/api-app';

const ROOT = join(__dirname, '../..');
const ENTRY = join(ROOT, 'dist/out/tests/api/fixtures/edge-node.js');

interface Node {
  child: ChildProcess;
  url: string;
}

function startNode(name: string, db: TestDatabase, dataDir: string): Promise<Node> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: build first (node tools/build.mjs --backend)`);
  const child = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      EDGE_NAME: name,
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      MESSAGING_TRANSPORT: 'inprocess',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OUTBOX_POLL_MS: '200',
      DATA_DIR: join(dataDir, name),
      FILE_STORAGE_DIR: join(dataDir, 'files'),
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  return new Promise<Node>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /EDGE_READY (\S+)/.exec(String(d));
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited early (${code}): ${out.slice(-3000)}`)));
  });
}

function stopNode(n: Node | undefined): Promise<void> {
  if (!n || n.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    n.child.once('exit', () => resolve());
    n.child.kill('SIGTERM');
  });
}

/**
 * Two gateway processes side by side on one database: the Free plan's 10 API calls a day hold across
 * both (billing's counters in Postgres), and a session made on one replica works on the other.
 */
describe('two gateway processes share limits and sessions through Postgres', () => {
  let db: TestDatabase;
  let seeder: TestApp;
  let a: Node | undefined;
  let b: Node | undefined;

  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [identitySchema, agentsSchema, billingSchema], prefix: 'gaia_two_gw' });
    // The test itself only seeds an agent through the agents service (no HTTP route creates one without ingestion).
    seeder = await createTestApp({ schemas: [identitySchema, agentsSchema, billingSchema], consumers: ['agents'], imports: [AgentsModule], database: db });
    [a, b] = await Promise.all([startNode('gw-a', db, seeder.dataDir), startNode('gw-b', db, seeder.dataDir)]);
  });

  afterAll(async () => {
    await Promise.all([stopNode(a), stopNode(b)]);
    await seeder?.close();
  });

  it('allows exactly 10 Free-plan API calls per day across both processes, then 429 + Retry-After', async () => {
    const email = `two-gw-${Date.now()}@example.org`;
    const signup = await request(a!.url).post('/api/auth/signup').send({ email, password: 'two gateways pw' }).expect(201);
    const cookie = `gaia_session=${cookieValue(signup, 'gaia_session')}; gaia_csrf=${cookieValue(signup, 'gaia_csrf')}`;
    const csrf = cookieValue(signup, 'gaia_csrf')!;
    // The session made on A is valid on B (stored hashed in Postgres).
    const me = await request(b!.url).get('/api/auth/me').set('Cookie', cookie).expect(200);
    expect(me.body.user.email).toBe(email);
    const key = (await request(b!.url).post('/api/api-keys/create/').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ name: 'two gateways' }).expect(200)).body.api_key;
    const agent = await seeder.app.get<RpcClient>(RPC_CLIENT).call('agents.create.v1', { ownerId: signup.body.user.uid, ownerEmail: email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'es-qu', public: true });

    const body = { text: 'allin punchaw', model_id: agent.id, src_lang: 'es', tgt_lang: 'qu', stream: false };
    // 16 calls at once, alternating between the two processes.
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => request(i % 2 ? b!.url : a!.url).post('/api/translate/').set('X-API-Key', key).send(body)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const okPerProcess = [0, 1].map((p) => results.filter((r, i) => i % 2 === p && r.status === 200).length);
    expect(okPerProcess[0] + okPerProcess[1]).toBe(10);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body.error).toMatch(/^Daily limit reached: the Free plan allows 10 API calls per day/);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Still refused on both afterwards.
    await request(a!.url).post('/api/translate/').set('X-API-Key', key).send(body).expect(429);
    await request(b!.url).post('/api/translate/').set('X-API-Key', key).send(body).expect(429);
  });
});
