import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { AgentsModule } from '@gaia/agents/feature';
import { agentsSchema } from '@gaia/agents/data-access';
import { billingSchema } from '@gaia/billing/data-access';
import { identitySchema } from '@gaia/identity/data-access';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '@gaia/testing';
import { cookieValue } from './support/api-app';
import { createAgent } from './support/agents';

const ROOT = join(__dirname, '../..');
const EDGE_NODE = join(ROOT, 'dist/out/tests/api/fixtures/edge-node.js');
const QUOTA_BACKEND = join(ROOT, 'dist/out/tests/api/fixtures/quota-backend.js');
const GATEWAY = join(ROOT, 'dist/apps/gateway/main.js');
const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

interface Node {
  child: ChildProcess;
  url: string;
}

/** Spawns a built entry point and resolves with its URL once `ready` matches a line of its output. */
function spawnNode(entry: string, name: string, env: Record<string, string>, ready: RegExp): Promise<Node> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (node tools/build.mjs --backend)`);
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      OUTBOX_POLL_MS: '200',
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  return new Promise<Node>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited early (${code}): ${out.slice(-3000)}`)));
  });
}

function startNode(name: string, db: TestDatabase, dataDir: string): Promise<Node> {
  return spawnNode(
    EDGE_NODE,
    name,
    {
      EDGE_NAME: name,
      DATABASE_URL: db.url,
      MESSAGING_TRANSPORT: 'inprocess',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(dataDir, name),
      FILE_STORAGE_DIR: join(dataDir, 'files'),
    },
    /EDGE_READY (\S+)/,
  );
}

function stopNode(n: Node | undefined): Promise<void> {
  if (!n || n.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    n.child.once('exit', () => resolve());
    n.child.kill('SIGTERM');
  });
}

async function exactlyTenAcross(a: Node, b: Node, key: string, agentId: string): Promise<void> {
  const body = { text: 'allin punchaw', model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false };
  // 16 calls at once, alternating between the two processes.
  const results = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      request(i % 2 ? b.url : a.url)
        .post('/api/translate/')
        .set('X-API-Key', key)
        .send(body),
    ),
  );
  const statuses = results.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  for (const r of results.filter((x) => x.status === 429)) {
    expect(r.body.error).toMatch(/^Daily limit reached: the Free plan allows 10 API calls per day/);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  }
  // Still refused on both afterwards.
  await request(a.url).post('/api/translate/').set('X-API-Key', key).send(body).expect(429);
  await request(b.url).post('/api/translate/').set('X-API-Key', key).send(body).expect(429);
}

/** Signs up on A, checks the session on B, creates a key on B. */
async function userWithKey(a: Node, b: Node): Promise<{ uid: string; email: string; key: string }> {
  const email = `two-gw-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.org`;
  const signup = await request(a.url).post('/api/auth/signup').send({ email, password: 'two gateways pw' }).expect(201);
  const csrf = cookieValue(signup, 'gaia_csrf')!;
  const cookie = `gaia_session=${cookieValue(signup, 'gaia_session')}; gaia_csrf=${csrf}`;
  // The session made on A is valid on B (stored hashed in Postgres).
  expect((await request(b.url).get('/api/auth/me').set('Cookie', cookie).expect(200)).body.user.email).toBe(email);
  const key = (await request(b.url).post('/api/api-keys/create/').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ name: 'two gateways' }).expect(200))
    .body.api_key;
  return { uid: signup.body.user.uid, email, key };
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
    const u = await userWithKey(a!, b!);
    const agent = await createAgent(seeder.app, { ownerId: u.uid, ownerEmail: u.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'es-qu', public: true });
    await exactlyTenAcross(a!, b!, u.key, agent.id);
  });
});

/**
 * The deployed topology: two real gateway binaries (`dist/apps/gateway/main.js`) over NATS in front of
 * the agents + billing services (and the translation contract stand-in) in another process.
 */
describe('two gateway binaries over NATS share the Free limit', () => {
  let db: TestDatabase;
  let seeder: TestApp;
  let backend: Node | undefined;
  let a: Node | undefined;
  let b: Node | undefined;

  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [identitySchema, agentsSchema, billingSchema], prefix: 'gaia_two_gw_nats' });
    // The seeder creates the agent through the agents use case (no RPC creates one: production agents come from ingestion).
    seeder = await createTestApp({
      schemas: [identitySchema, agentsSchema, billingSchema],
      consumers: [],
      imports: [AgentsModule],
      transport: 'nats',
      env: { NATS_URL },
      database: db,
    });
    const common = {
      DATABASE_URL: db.url,
      MESSAGING_TRANSPORT: 'nats',
      MESSAGING_NAMESPACE: db.name,
      NATS_URL,
      MIGRATIONS_RUN: 'false',
      FILE_STORAGE_DIR: join(seeder.dataDir, 'files'),
    };
    backend = await spawnNode(QUOTA_BACKEND, 'backend', { ...common, DATA_DIR: join(seeder.dataDir, 'backend') }, /BACKEND_READY (\S+)/);
    [a, b] = await Promise.all(
      ['gw-1', 'gw-2'].map((n) => spawnNode(GATEWAY, n, { ...common, DATA_DIR: join(seeder.dataDir, n) }, /Gaia is running at (\S+)/)),
    );
  });

  afterAll(async () => {
    await Promise.all([stopNode(a), stopNode(b)]);
    await stopNode(backend);
    await seeder?.close();
  });

  it('allows exactly 10 Free-plan API calls across both gateways, then 429', async () => {
    const u = await userWithKey(a!, b!);
    const agent = await createAgent(seeder.app, { ownerId: u.uid, ownerEmail: u.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'es-qu', public: true });
    await exactlyTenAcross(a!, b!, u.key, agent.id);
  });
});
