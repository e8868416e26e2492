import http from 'node:http';
import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { signUp, startApi, type User } from './support/api-app';
import { rawText, sseEvents } from './support/sse';
import { TranslationStandIn, TranslationStandInModule } from './fixtures/translation-stand-in';
import {
  GaiaAuthenticationError,
  GaiaClient,
  GaiaNotFoundError,
  GaiaRateLimitError,
  GaiaServerError,
  GaiaValidationError,
  type GaiaApiError,
  type TranslateRequest,
} from '@gaia/client';
import type { TranslationEventDto } from '@gaia/contracts';
import { createAgent as seedAgent } from './support/agents';
import { realAgent, TINY_ES_QU } from './fixtures/real-agent';

/**
 * POST /api/translate/ at the edge: keys, SSE and JSON framing, status codes, plan limits (real billing),
 * public key rules (real agents), idempotency, cancellation — called through @gaia/client, the published SDK
 * (raw HTTP only where the wire itself is checked). The translation service is a stand-in that
 * speaks the real RPC contract (see fixtures/translation-stand-in.ts): this suite inspects the requests it
 * receives (caller, final_only, request ids), fails on demand (fail-before, fail-midway) and hangs to check
 * cancellation, none of which the real engine can be made to do. The per-key rate limit below runs on the real
 * translation service.
 */
describe('API keys and POST /api/translate/', () => {
  let t: TestApp & { url: string };
  let rpc: RpcClient;
  let standIn: TranslationStandIn;
  let owner: User;
  let stranger: User;
  let publicAgent: string;
  let privateAgent: string;
  let ownerKey: string;
  let ownerKeyId: string;
  let publicKey: string;

  const createAgent = async (u: User, isPublic: boolean) => {
    const a = await seedAgent(t.app, {
      ownerId: u.uid,
      ownerEmail: u.email,
      srcLang: 'es',
      tgtLang: 'qu',
      customPrompt: 'Español → Quechua',
      public: isPublic,
    });
    return a.id;
  };

  beforeAll(async () => {
    t = await startApi({
      without: ['TranslationModule'],
      imports: [TranslationStandInModule],
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
      env: { PUBLIC_TRANSLATE_PER_IP_PER_DAY: '5' },
    });
    rpc = t.app.get(RPC_CLIENT);
    standIn = t.app.get(TranslationStandIn);
    owner = await signUp(t.url, 'owner');
    stranger = await signUp(t.url, 'stranger');
    publicAgent = await createAgent(owner, true);
    privateAgent = await createAgent(owner, false);
    const created = await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'CI key' }).expect(200);
    ownerKey = created.body.api_key;
    ownerKeyId = created.body.key.key_id;
    publicKey = (await request(t.url).get('/api/public/config').expect(200)).body.publicApiKey;
  });
  afterAll(() => t?.close());

  const body = (over: Record<string, unknown> = {}) => ({ text: 'allin punchaw', model_id: publicAgent, src_lang: 'es', tgt_lang: 'qu', ...over });

  describe('API keys', () => {
    it('answers the key once, stores only a SHA-256 hash, lists it by prefix', async () => {
      expect(ownerKey).toMatch(/^gaia_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
      const secret = ownerKey.split('_').slice(2).join('_');
      expect(Buffer.from(secret, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
      const rows = await t.dataSource.query(`SELECT prefix, secret_hash FROM identity_api_key WHERE id = $1`, [ownerKeyId]);
      expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(rows)).not.toContain(secret);
      const list = await owner.agent.get('/api/api-keys/list/').expect(200);
      expect(list.body).toEqual({
        success: true,
        api_keys: [{ key_id: ownerKeyId, name: 'CI key', prefix: ownerKey.slice(0, 17), created_at: expect.any(String), revoked: false }],
        next_cursor: null,
      });
      expect(JSON.stringify(list.body)).not.toContain(secret);
      expect((await stranger.agent.get('/api/api-keys/list/').expect(200)).body.api_keys).toEqual([]);
    });

    it('refuses a blank name, and a stranger can neither revoke nor read the usage of the key', async () => {
      expect((await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: '  ' }).expect(400)).body).toEqual({
        error: 'Please enter a name for the API key.',
      });
      await stranger.agent.post('/api/api-keys/revoke/').set('X-CSRF-Token', stranger.csrf).send({ key_id: ownerKeyId }).expect(404);
      await stranger.agent.get(`/api/api-keys/usage/?key_id=${ownerKeyId}`).expect(404);
    });

    it('replays create with the same Idempotency-Key (one key, metadata only: the secret is never stored), 422 with another body', async () => {
      const a = await owner.agent
        .post('/api/api-keys/create/')
        .set('X-CSRF-Token', owner.csrf)
        .set('Idempotency-Key', 'create-1')
        .send({ name: 'idem' })
        .expect(200);
      const secret = (a.body.api_key as string).split('_').slice(2).join('_');
      const stored = await t.dataSource.query(`SELECT * FROM identity_idempotency`);
      expect(stored.length).toBeGreaterThan(0);
      expect(JSON.stringify(stored)).not.toContain(secret);
      const b = await owner.agent
        .post('/api/api-keys/create/')
        .set('X-CSRF-Token', owner.csrf)
        .set('Idempotency-Key', 'create-1')
        .send({ name: 'idem' })
        .expect(200);
      expect(b.body).toEqual({ success: true, api_key: null, key: a.body.key, secret_shown_once: true, message: expect.stringMatching(/shown only once/) });
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(
        (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).set('Idempotency-Key', 'create-1').send({ name: 'other' }).expect(422))
          .body,
      ).toEqual({
        error: 'This Idempotency-Key was already used with a different request.',
      });
      // Another user may use the same key string: scopes are per user.
      await stranger.agent
        .post('/api/api-keys/create/')
        .set('X-CSRF-Token', stranger.csrf)
        .set('Idempotency-Key', 'create-1')
        .send({ name: 'idem' })
        .expect(200);
      const names = (await owner.agent.get('/api/api-keys/list/').expect(200)).body.api_keys.map((k: { name: string }) => k.name);
      expect(names.filter((n: string) => n === 'idem')).toHaveLength(1);
    });
  });

  describe('translate (through @gaia/client; wire-level framing, CSRF and disconnects with raw HTTP)', () => {
    const client = (apiKey?: string) => new GaiaClient({ baseUrl: t.url, apiKey });
    const req = (over: Partial<TranslateRequest> = {}): TranslateRequest => ({
      text: 'allin punchaw',
      model_id: publicAgent,
      src_lang: 'es',
      tgt_lang: 'qu',
      ...over,
    });
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e as GaiaApiError,
      );

    it('streams SSE by default: status, chunks, translation_complete', async () => {
      const events: TranslationEventDto[] = [];
      for await (const e of client(ownerKey).streamTranslation(req())) events.push(e);
      expect(events.map((e) => e.type)).toEqual(['status', 'translation_chunk', 'translation_chunk', 'translation_complete']);
      expect(events.at(-1)).toMatchObject({ final_translation: 'ALLIN PUNCHAW', source_text: 'allin punchaw' });
      expect(standIn.requests.at(-1)!.caller).toEqual({ keyId: ownerKeyId, userId: owner.uid });
      expect(standIn.requests.at(-1)!.final_only).toBeUndefined(); // the stream wants every event
      // The wire format itself: text/event-stream of `data: {json}` blocks, the default when stream is absent.
      const res = await request(t.url).post('/api/translate/').set('X-API-Key', ownerKey).send(body()).buffer(true).parse(rawText).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(sseEvents(res.body as unknown as string).map((e) => e['type'])).toEqual(events.map((e) => e.type));
      expect(
        (res.body as unknown as string)
          .split('\n\n')
          .filter(Boolean)
          .every((l) => l.startsWith('data: ')),
      ).toBe(true);
    });

    it('answers JSON when stream is false', async () => {
      expect(await client(ownerKey).translate(req())).toMatchObject({
        success: true,
        data: { translation: 'ALLIN PUNCHAW', raw_translation: 'ALLIN PUNCHAW' },
        confidence: 0.9,
        untranslated: [],
        source_text: 'allin punchaw',
        response_time: 0.01,
        source_language: 'es',
        target_language: 'qu',
      });
      // only the answer is kept: the translation service is asked for no per-word events
      expect(standIn.requests.at(-1)!.final_only).toBe(true);
    });

    it('validates: 50 words, 2,000 characters, required fields (400), before any quota is used', async () => {
      const before = standIn.requests.length;
      const c = client(ownerKey);
      const words51 = Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ');
      expect(await failure(c.translate(req({ text: words51 })))).toEqual(new GaiaValidationError('Text is too long: 51 words (maximum 50).', 400));
      expect(await failure(c.translate(req({ text: 'a'.repeat(2001) })))).toMatchObject({
        status: 400,
        message: 'Text is too long: 2,001 characters (maximum 2,000).',
      });
      expect(await failure(c.translate({ text: 'hola' } as TranslateRequest))).toMatchObject({
        status: 400,
        message: 'Missing required fields: model_id, src_lang, tgt_lang.',
      });
      expect(await failure(c.translate(req({ text: '   ' })))).toBeInstanceOf(GaiaValidationError);
      // A non-boolean stream cannot be sent through the typed client.
      await request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', ownerKey)
        .send(body({ stream: 'yes' }))
        .expect(400);
      expect(standIn.requests.length).toBe(before);
    });

    it('401 without a key, with a bad key and with a revoked key; 404 Model not found.', async () => {
      expect(await failure(client().translate(req()))).toEqual(new GaiaAuthenticationError('Missing API key. Send it in the X-API-Key header.', 401));
      expect(await failure(client('gaia_000000000000_' + 'x'.repeat(43)).translate(req()))).toMatchObject({ status: 401, message: 'Invalid API key.' });
      expect(await failure(client(ownerKey.slice(0, -2) + 'zz').translate(req()))).toMatchObject({ status: 401, message: 'Invalid API key.' });
      expect(await failure(client(ownerKey).translate(req({ model_id: 'no-such-agent' })))).toEqual(new GaiaNotFoundError('Model not found.', 404));
      const k = await stranger.agent.post('/api/api-keys/create/').set('X-CSRF-Token', stranger.csrf).send({ name: 'to revoke' }).expect(200);
      const strangerKey = client(k.body.api_key);
      await strangerKey.translate(req());
      // A stranger's key cannot use the owner's private agent.
      expect(await failure(strangerKey.translate(req({ model_id: privateAgent })))).toMatchObject({ status: 404, message: 'Model not found.' });
      await stranger.agent.post('/api/api-keys/revoke/').set('X-CSRF-Token', stranger.csrf).send({ key_id: k.body.key.key_id }).expect(200);
      expect(await failure(strangerKey.translate(req()))).toMatchObject({ status: 401, message: 'This API key has been revoked.' });
      expect(
        (await stranger.agent.get('/api/api-keys/list/').expect(200)).body.api_keys.find((x: { key_id: string }) => x.key_id === k.body.key.key_id).revoked,
      ).toBe(true);
    });

    it("the owner's key and session reach the private agent", async () => {
      await client(ownerKey).translate(req({ model_id: privateAgent }));
      // Session (the owner's test translator) needs the CSRF token like any unsafe session request.
      await owner.agent
        .post('/api/translate/')
        .send(body({ model_id: privateAgent, stream: false }))
        .expect(403);
      const r = await owner.agent
        .post('/api/translate/')
        .set('X-CSRF-Token', owner.csrf)
        .send(body({ model_id: privateAgent, stream: false }))
        .expect(200);
      expect(r.body.data.translation).toBe('ALLIN PUNCHAW');
      expect(standIn.requests.at(-1)!.caller).toEqual({ keyId: null, userId: owner.uid });
    });

    it('the public key translates public agents only, with per-IP limits (429 + Retry-After)', async () => {
      const c = client(publicKey);
      expect(await failure(c.translate(req({ model_id: privateAgent })))).toMatchObject({ status: 404, message: 'Model not found.' });
      // The refused request (404) consumed nothing: 5 translations a day from this IP.
      for (let i = 0; i < 5; i++) await c.translate(req());
      const e = await failure(c.translate(req()));
      expect(e).toBeInstanceOf(GaiaRateLimitError);
      expect(e?.message).toMatch(/^Too many requests from your network with the public key/);
      expect((e as GaiaRateLimitError).retryAfterSeconds).toBeGreaterThan(0);
    });

    it('replays a non-streamed translation with the same Idempotency-Key without translating again', async () => {
      const before = standIn.requests.length;
      const c = client(ownerKey);
      const a = await c.translate(req(), { idempotencyKey: 'tr-1' });
      // Billed under an id that follows the key, so a retry whose answer was lost is never billed twice.
      expect(standIn.requests.at(-1)!.requestId).toMatch(/^idem-[0-9a-f]{40}$/);
      expect(await c.translate(req(), { idempotencyKey: 'tr-1' })).toEqual(a);
      expect(standIn.requests.length).toBe(before + 1);
      expect(await failure(c.translate(req({ text: 'otro texto' }), { idempotencyKey: 'tr-1' }))).toMatchObject({ status: 422 });
      // The replay is marked on the wire.
      const b = await request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', ownerKey)
        .set('Idempotency-Key', 'tr-1')
        .send(body({ stream: false }))
        .expect(200);
      expect(b.headers['idempotent-replayed']).toBe('true');
    });

    it('a refusal by the translation service is a JSON error with its status, and gives the quota back', async () => {
      expect(await failure(client(ownerKey).translate(req({ text: 'fail-before now' })))).toMatchObject({
        status: 409,
        message: 'This agent has no trained data yet. Try again when document processing completes.',
      });
      // Streamed, too: the refusal comes before the stream, as a JSON error.
      const r = await request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', ownerKey)
        .send(body({ text: 'fail-before now' }))
        .expect(409);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      const requestId = standIn.requests.at(-1)!.requestId;
      expect(standIn.requests.at(-1)!.text).toBe('fail-before now');
      await expect(rpc.call('billing.release.v1', { requestId })).resolves.toEqual({ released: false }); // already given back by the gateway
      const [row] = await t.dataSource.query(`SELECT status FROM billing_authorization WHERE request_id = $1`, [requestId]);
      expect(row.status).toBe('released');
    });

    it('an engine error mid-stream ends the SSE with an error event; non-streamed it is a 502 { error }', async () => {
      const c = client(ownerKey);
      const seen: string[] = [];
      const streamed = await failure(
        (async () => {
          for await (const e of c.streamTranslation(req({ text: 'fail-midway' }))) seen.push(e.type);
        })(),
      );
      expect(streamed).toEqual(new GaiaServerError('The engine failed.', 502));
      expect(seen).not.toContain('translation_complete');
      const res = await request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', ownerKey)
        .send(body({ text: 'fail-midway' }))
        .buffer(true)
        .parse(rawText)
        .expect(200);
      expect(sseEvents(res.body as unknown as string).at(-1)).toEqual({ type: 'error', message: 'The engine failed.' });
      expect(await failure(c.translate(req({ text: 'fail-midway' })))).toEqual(new GaiaServerError('The engine failed.', 502));
    });

    it('a client that disconnects mid-stream cancels the translation', async () => {
      const cancelled = standIn.whenCancelled();
      const before = standIn.cancelled;
      await new Promise<void>((resolve, reject) => {
        const req = http.request(
          `${t.url}/api/translate/`,
          { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': ownerKey } },
          (res) => {
            expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
            res.once('data', (chunk: Buffer) => {
              expect(chunk.toString()).toContain('data: ');
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
        req.end(JSON.stringify(body({ text: 'hang on' })));
      });
      await cancelled;
      expect(standIn.cancelled).toBe(before + 1);
    });

    it('meters usage per key (billing, fed by usage.recorded.v1): tokens, costs, rate limit', async () => {
      await t.drain();
      const u = await owner.agent.get(`/api/api-keys/usage/?key_id=${ownerKeyId}`).expect(200);
      expect(u.body.success).toBe(true);
      const usage = u.body.usage;
      expect(usage.rate_limit).toBe(1000);
      expect(usage.total_requests).toBeGreaterThanOrEqual(4);
      expect(usage.requests[0]).toEqual({
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        words: expect.any(Number),
        created_at: expect.any(String),
      });
      const inTok = usage.requests.reduce((s: number, r: { input_tokens: number }) => s + r.input_tokens, 0);
      const outTok = usage.requests.reduce((s: number, r: { output_tokens: number }) => s + r.output_tokens, 0);
      expect(usage.input_cost).toBeCloseTo((inTok * 3) / 1e6, 9);
      expect(usage.output_cost).toBeCloseTo((outTok * 15) / 1e6, 9);
      const summary = await owner.agent.get('/api/usage/summary').expect(200);
      expect(summary.body).toMatchObject({ plan: 'Free', total_requests: expect.any(Number), series: expect.any(Array) });
    });

    it('Free plan: 10 API calls a day, then 429 with Retry-After until the UTC reset', async () => {
      const u = await signUp(t.url, 'free');
      const k = client((await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'free key' }).expect(200)).body.api_key);
      for (let i = 0; i < 10; i++) await k.translate(req());
      const e = await failure(k.translate(req()));
      expect(e).toBeInstanceOf(GaiaRateLimitError);
      expect(e?.message).toMatch(/^Daily limit reached: the Free plan allows 10 API calls per day/);
      const retry = (e as GaiaRateLimitError).retryAfterSeconds!;
      const now = new Date();
      const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(Math.ceil((midnight - now.getTime()) / 1000) + 1);
      // The dashboard's test translator (session) counts under the same plan: no way around the limit.
      await u.agent
        .post('/api/translate/')
        .set('X-CSRF-Token', u.csrf)
        .send(body({ stream: false }))
        .expect(429);
    });
  });
});

describe('per-key daily rate limit (real translation service)', () => {
  let t: TestApp & { url: string };
  afterAll(() => t?.close());

  it("refuses a key's calls beyond its daily rate limit with 429 + Retry-After (other keys unaffected)", async () => {
    t = await startApi({ gateway: { identity: { defaultKeyRateLimit: 3 } } });
    const u = await signUp(t.url, 'ratelimit');
    // A real agent learned from a tiny made-up corpus (its upload is no API-key call).
    const agentId = await realAgent(t, u, { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU, public: true });
    const mk = async (name: string) => (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name }).expect(200)).body;
    const k1 = await mk('one');
    const k2 = await mk('two');
    const req = { text: 'buenos días', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' };
    const one = new GaiaClient({ baseUrl: t.url, apiKey: k1.api_key });
    for (let i = 0; i < 3; i++) expect((await one.translate(req)).data.translation).toBe('allin punchaw');
    const e = await one.translate(req).then(
      () => null,
      (x: unknown) => x as GaiaRateLimitError,
    );
    expect(e).toBeInstanceOf(GaiaRateLimitError);
    expect(e?.message).toMatch(/^Rate limit exceeded: this API key allows 3 requests per day/);
    expect(e?.retryAfterSeconds).toBeGreaterThan(0);
    await new GaiaClient({ baseUrl: t.url, apiKey: k2.api_key }).translate(req);
    await t.drain();
    const usage = (await u.agent.get(`/api/api-keys/usage/?key_id=${k1.key.key_id}`).expect(200)).body.usage;
    expect(usage).toMatchObject({ total_requests: 3, rate_limit: 3 });
  });
});
