import { Client } from 'pg';
import request from 'supertest';
import { io, type Socket } from 'socket.io-client';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { createTestDatabase, startTcpProxy, viaPort, waitFor, type TcpProxy, type TestApp, type TestDatabase } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { rawText, sseEvents } from './support/sse';
import { TranslationStandIn, TranslationStandInModule } from './fixtures/translation-stand-in';
import { createAgent } from './support/agents';
import { realAgent, TINY_ES_QU } from './fixtures/real-agent';

/**
 * Every translation path is metered by one use case (billing.authorize.v1 through the gateway's
 * TranslationMeter): API keys, the session (dashboard test translator), Socket.IO `translate` and the
 * public translator; a failed translation gives its units back, also after a database outage.
 * The paths are proven on the real translation service with a real agent learned from a tiny corpus; only the
 * failures the real engine cannot be made to produce on demand (an engine error mid-stream, a database outage
 * while the service reads) use the translation stand-in.
 */
const FREE_DAILY = 10;
const PUBLIC_PER_IP_PER_DAY = 3;

async function units(t: TestApp, subject: string): Promise<number> {
  const rows: { count: number }[] = await t.dataSource.query(`SELECT COALESCE(sum(count), 0)::int AS count FROM billing_counter WHERE subject = $1`, [subject]);
  return rows[0].count;
}

/**
 * The refused or failed translations of `uid` gave their units back: one allowed authorization is still counted
 * (api-calls 1) and `released` were released.
 */
async function expectUnitsBack(t: TestApp, uid: string, released: number, what: string): Promise<void> {
  await waitFor(
    () => units(t, `user:${uid}:api-calls`),
    (n) => n === 1,
    { timeoutMs: 10_000, intervalMs: 20, what },
  );
  const statuses: { status: string; n: number }[] = await t.dataSource.query(
    `SELECT status, count(*)::int AS n FROM billing_authorization WHERE user_id = $1 GROUP BY status ORDER BY status`,
    [uid],
  );
  expect(statuses).toEqual([
    { status: 'allowed', n: 1 },
    { status: 'released', n: released },
  ]);
}

function socketTranslate(
  s: Socket,
  body: Record<string, unknown>,
): Promise<{ ack: { ok: boolean; error?: string }; last: { type: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    let ack: { ok: boolean; error?: string } | null = null;
    let last: { type: string; message?: string } | null = null;
    const finish = () => ack && last && (s.off('translation_event', onEvent), resolve({ ack, last }));
    const onEvent = (e: { type: string; message?: string }) => {
      if (e.type === 'translation_complete' || e.type === 'error') {
        last = e;
        finish();
      }
    };
    s.on('translation_event', onEvent);
    s.emitWithAck('translate', body).then((a: { ok: boolean; error?: string }) => {
      ack = a;
      finish();
    }, reject);
  });
}

describe('metering: no path translates unmetered (real translation service)', () => {
  let t: TestApp & { url: string };
  let rpc: RpcClient;
  let owner: User;
  let agentId: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await startApi({
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
      env: { PUBLIC_TRANSLATE_PER_IP_PER_DAY: String(PUBLIC_PER_IP_PER_DAY) },
    });
    rpc = t.app.get(RPC_CLIENT);
    owner = await signUp(t.url, 'owner');
    agentId = await realAgent(t, owner, { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU, public: true });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
  });

  // A sentence of the agent's corpus: the real engine answers its target.
  const body = (over: Record<string, unknown> = {}) => ({ text: 'buenos días', model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false, ...over });
  const openSocket = async (u: User) => {
    const s = io(t.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: u.cookie }, reconnection: false, forceNew: true });
    sockets.push(s);
    await new Promise<void>((resolve, reject) => s.once('connect', () => resolve()).once('connect_error', reject));
    return s;
  };

  it("a Free user's API key, session (test translator) and Socket.IO translations share the plan's 10 a day", async () => {
    const u = await signUp(t.url, 'free');
    const key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'k' }).expect(200)).body.api_key as string;
    const socket = await openSocket(u);
    const first = await u.agent.post('/api/translate/').set('X-CSRF-Token', u.csrf).send(body()).expect(200);
    expect(first.body.data.translation).toBe('allin punchaw');
    for (let i = 0; i < 3; i++) await u.agent.post('/api/translate/').set('X-CSRF-Token', u.csrf).send(body()).expect(200);
    for (let i = 0; i < 3; i++) expect((await socketTranslate(socket, body())).last.type).toBe('translation_complete');
    for (let i = 0; i < 3; i++) await request(t.url).post('/api/translate/').set('X-API-Key', key).send(body()).expect(200);
    expect(await units(t, `user:${u.uid}:api-calls`)).toBe(FREE_DAILY);

    const session = await u.agent.post('/api/translate/').set('X-CSRF-Token', u.csrf).send(body()).expect(429);
    expect(session.body.error).toMatch(/^Daily limit reached: the Free plan allows 10 API calls per day/);
    expect(Number(session.headers['retry-after'])).toBeGreaterThan(0);
    await u.agent
      .post('/api/translate/')
      .set('X-CSRF-Token', u.csrf)
      .send(body({ stream: true }))
      .expect(429);
    const viaSocket = await socketTranslate(socket, body());
    expect(viaSocket.ack.ok).toBe(false);
    expect(viaSocket.last.message).toMatch(/^Daily limit reached/);
    await request(t.url).post('/api/translate/').set('X-API-Key', key).send(body()).expect(429);
    expect(await units(t, `user:${u.uid}:api-calls`)).toBe(FREE_DAILY);
  });

  it('a paid plan has no daily call limit on the session', async () => {
    const u = await signUp(t.url, 'starter');
    await rpc.call('billing.set-plan.v1', { userId: u.uid, plan: 'starter' });
    for (let i = 0; i < FREE_DAILY + 1; i++) await u.agent.post('/api/translate/').set('X-CSRF-Token', u.csrf).send(body()).expect(200);
  });

  it('the anonymous public translator is limited per client IP (PUBLIC_TRANSLATE_PER_IP_PER_DAY), 429 + Retry-After', async () => {
    const publicKey = (await request(t.url).get('/api/public/config').expect(200)).body.publicApiKey as string;
    for (let i = 0; i < PUBLIC_PER_IP_PER_DAY; i++) await request(t.url).post('/api/translate/').set('X-API-Key', publicKey).send(body()).expect(200);
    const r = await request(t.url).post('/api/translate/').set('X-API-Key', publicKey).send(body()).expect(429);
    expect(r.body.error).toMatch(/^Too many requests from your network with the public key/);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    const ipDays: { count: number }[] = await t.dataSource.query(
      `SELECT count FROM billing_counter WHERE subject LIKE 'public-ip:%' AND window_key LIKE 'd:%'`,
    );
    expect(ipDays).toEqual([{ count: PUBLIC_PER_IP_PER_DAY }]);
  });

  it('a refused translation gives its units back: the real service refuses an agent with no trained data (409), key and session', async () => {
    const u = await signUp(t.url, 'refused');
    const key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'k' }).expect(200)).body.api_key as string;
    const unlearned = (await createAgent(t.app, { ownerId: u.uid, ownerEmail: u.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'u' })).id;
    await request(t.url).post('/api/translate/').set('X-API-Key', key).send(body()).expect(200);
    const refused = await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send(body({ model_id: unlearned }))
      .expect(409);
    expect(refused.body.error).toMatch(/^This agent has no trained data yet/);
    await u.agent
      .post('/api/translate/')
      .set('X-CSRF-Token', u.csrf)
      .send(body({ model_id: unlearned }))
      .expect(409);
    await expectUnitsBack(t, u.uid, 2, 'units of the refused translations back');
  });
});

/**
 * Stand-in: the real engine cannot be made to fail mid-stream on demand, so an engine error after the first chunk
 * (`fail-midway …`) is produced by the translation stand-in (same RPC contract, same usage event).
 */
describe('metering: an engine error mid-stream gives the units back (translation stand-in)', () => {
  let t: TestApp & { url: string };
  let agentId: string;

  beforeAll(async () => {
    t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule], gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    const owner = await signUp(t.url, 'owner');
    agentId = (await createAgent(t.app, { ownerId: owner.uid, ownerEmail: owner.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'm', public: true })).id;
  });
  afterAll(() => t?.close());

  const body = (over: Record<string, unknown> = {}) => ({ text: 'allin punchaw', model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false, ...over });

  it('an engine error (SSE and JSON, key and session) releases its units', async () => {
    const u = await signUp(t.url, 'fails');
    const key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'k' }).expect(200)).body.api_key as string;
    await request(t.url).post('/api/translate/').set('X-API-Key', key).send(body()).expect(200);
    const sse = await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send(body({ text: 'fail-midway', stream: true }))
      .buffer(true)
      .parse(rawText)
      .expect(200);
    expect(sseEvents(sse.body as unknown as string).at(-1)).toEqual({ type: 'error', message: 'The engine failed.' });
    await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send(body({ text: 'fail-midway' }))
      .expect(502);
    await u.agent
      .post('/api/translate/')
      .set('X-CSRF-Token', u.csrf)
      .send(body({ text: 'fail-midway' }))
      .expect(502);
    await expectUnitsBack(t, u.uid, 3, 'units of the failed translations back');
  });
});

/** Stand-in: the `outage …` gate holds the request until the database is cut, which the real service cannot be told to do. */
describe('metering: a database outage mid-request', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp & { url: string };
  afterAll(async () => {
    proxy?.restore();
    await t?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('gives the units of the failed requests back once the database is reachable again (nothing lost, nothing counted twice)', async () => {
    db = await createTestDatabase();
    const pg = new URL(db.url);
    proxy = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
    t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule], database: { ...db, url: viaPort(db.url, proxy.port) } });
    const standIn = t.app.get(TranslationStandIn);
    const u = await signUp(t.url, 'outage');
    const agentId = (await createAgent(t.app, { ownerId: u.uid, ownerEmail: u.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'o', public: true })).id;
    const key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'k' }).expect(200)).body.api_key as string;
    const send = (text: string) =>
      request(t.url).post('/api/translate/').set('X-API-Key', key).send({ text, model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false });
    await send('allin punchaw').expect(200);

    const failed = send('outage now').then((r) => r.status);
    await standIn.whenWaiting();
    proxy.cut();
    standIn.proceed();
    expect(await failed).toBeGreaterThanOrEqual(500);
    proxy.restore();

    // Read through the proxy-free URL: the app's own pool recovers by itself.
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      const count = async () =>
        (await c.query(`SELECT COALESCE(sum(count), 0)::int AS n FROM billing_counter WHERE subject = $1`, [`user:${u.uid}:api-calls`])).rows[0].n as number;
      await waitFor(count, (n) => n === 1, { timeoutMs: 60_000, intervalMs: 50, what: 'the unit of the failed request back' });
      await send('allin punchaw').expect(200);
      expect(await count()).toBe(2);
    } finally {
      await c.end();
    }
  });
});
