import { waitFor, type TestApp } from '@gaia/testing';
import { GaiaClient, GaiaNotFoundError, GaiaValidationError, type TranslateBatchRequest } from '@gaia/client';
import type { TranslateBatchEvent } from '@gaia/contracts';
import { signUp, startApi } from './support/api-app';
import { TranslationStandIn, TranslationStandInModule } from './fixtures/translation-stand-in';
import { createAgent } from './support/agents';
import { realAgent, TINY_ES_QU } from './fixtures/real-agent';

let seq = 0;
const newUser = async (t: TestApp & { url: string }, prefix: string) => {
  const c = new GaiaClient({ baseUrl: t.url });
  const { user } = await c.signUp({
    email: `${prefix}-${Date.now().toString(36)}-${seq++}@example.org`,
    password: 'correct horse battery staple',
    fullName: prefix,
  });
  const created = await c.createApiKey(`${prefix} key`);
  if (!created.api_key) throw new Error('first creation answers the secret');
  return { c, user, keyed: new GaiaClient({ baseUrl: t.url, apiKey: created.api_key }), keyId: created.key.key_id };
};
const words51 = Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ');

/**
 * POST /api/translate/batch through @gaia/client, on the platform composition (real agents, billing and translation
 * service; the agent is learned from a tiny made-up corpus, so its sentences translate to their known targets).
 */
describe('POST /api/translate/batch', () => {
  let t: TestApp & { url: string };
  let ownerUid: string;
  let keyed: GaiaClient;
  let agentId: string;
  const authorizations = async (userId: string): Promise<number> =>
    (await t.dataSource.query(`SELECT count(*)::int AS n FROM billing_authorization WHERE user_id = $1`, [userId]))[0].n;

  const batch = (texts: string[], over: Partial<TranslateBatchRequest> = {}): TranslateBatchRequest => ({
    texts,
    model_id: agentId,
    src_lang: 'es',
    tgt_lang: 'qu',
    ...over,
  });

  beforeAll(async () => {
    t = await startApi();
    // The owner's session uploads the corpus (the path users take); the owner stays on the Free plan (10 translations
    // a day): the suite's own texts stay under it.
    const u = await signUp(t.url, 'batch-owner');
    ownerUid = u.uid;
    agentId = await realAgent(t, u, { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU, public: true });
    const apiKey = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'batch-owner key' }).expect(200)).body
      .api_key as string;
    keyed = new GaiaClient({ baseUrl: t.url, apiKey });
  });
  afterAll(() => t?.close());

  it('answers one result per text in order (JSON), a text over the limits failing alone, each text one translation', async () => {
    const before = await authorizations(ownerUid);
    const r = await keyed.translateBatch(batch(['buenos días', words51, 'gracias', '   ']));
    expect(r).toMatchObject({ success: true, succeeded: 2, failed: 2, source_language: 'es', target_language: 'qu' });
    expect(r.results).toEqual([
      { index: 0, ok: true, translation: 'allin punchaw', raw_translation: 'allin punchaw', response_time: expect.any(Number) },
      { index: 1, ok: false, status: 400, error: 'Text is too long: 51 words (maximum 50).' },
      { index: 2, ok: true, translation: 'sulpayki', raw_translation: 'sulpayki', response_time: expect.any(Number) },
      { index: 3, ok: false, status: 400, error: 'Please enter text to translate.' },
    ]);
    // one billing authorization per translated text (the refused ones never reach the meter)
    expect((await authorizations(ownerUid)) - before).toBe(2);
  });

  it('takes the largest batch the limits allow: 100 texts of 2,000 characters (a body far over the 100 KB default)', async () => {
    const big = await newUser(t, 'batch-big');
    // 50 words of 39 letters: 1,999 characters, the most one text may carry within 50 words.
    const text = (i: number) => Array.from({ length: 50 }, (_, w) => `${String.fromCharCode(97 + ((i + w) % 26)).repeat(38)}${w % 10}`).join(' ');
    const texts = Array.from({ length: 100 }, (_, i) => text(i));
    expect(texts.every((x) => x.length === 1999)).toBe(true);
    const r = await big.keyed.translateBatch(batch(texts));
    expect(r.results).toHaveLength(100);
    // Each text is within the limits: none fails as too long; the Free plan translates its 10 and refuses the rest.
    expect(r.results.filter((x) => !x.ok && x.status === 400)).toEqual([]);
    expect(r.succeeded).toBe(10);
  });

  it("the plan's daily limit applies per text: the 11th text of a Free key fails with 429, the first 10 translate", async () => {
    const free = await newUser(t, 'batch-free');
    const r = await free.keyed.translateBatch(batch(Array.from({ length: 12 }, (_, i) => `texto ${i}`)));
    expect(r.succeeded).toBe(10);
    expect(r.results.filter((x) => !x.ok).map((x) => (x.ok ? 0 : x.status))).toEqual([429, 429]);
    await t.drain();
    expect((await free.c.apiKeyUsage(free.keyId)).usage.total_requests).toBe(10);
  });

  it('streams SSE events tagged with the index of their text, then batch_complete', async () => {
    const events: TranslateBatchEvent[] = [];
    for await (const e of keyed.streamBatch(batch(['buenos días', words51, 'gracias']))) events.push(e);
    expect(events.at(-1)).toEqual({ type: 'batch_complete', succeeded: 2, failed: 1, response_time: expect.any(Number) });
    const of = (i: number) => events.filter((e) => 'index' in e && e.index === i).map((e) => e.type);
    // each translated text: its status events first, its chunks, then exactly one translation_complete, last
    for (const i of [0, 2]) {
      expect(of(i)[0]).toBe('status');
      expect(of(i)).toContain('translation_chunk');
      expect(of(i).filter((x) => x === 'translation_complete')).toHaveLength(1);
      expect(of(i).at(-1)).toBe('translation_complete');
      expect(
        of(i)
          .slice(of(i).indexOf('translation_chunk'))
          .every((x) => x !== 'status'),
      ).toBe(true);
    }
    expect(of(1)).toEqual(['error']);
    expect(events.find((e) => 'index' in e && e.index === 0 && e.type === 'translation_complete')).toMatchObject({ final_translation: 'allin punchaw' });
    expect(events.find((e) => 'index' in e && e.index === 2 && e.type === 'translation_complete')).toMatchObject({ final_translation: 'sulpayki' });
  });

  it('refuses the whole batch for no texts, more than 100, an unknown agent or no key', async () => {
    await expect(keyed.translateBatch(batch([]))).rejects.toBeInstanceOf(GaiaValidationError);
    await expect(keyed.translateBatch(batch(Array.from({ length: 101 }, () => 'hola')))).rejects.toMatchObject({
      status: 400,
      message: 'Too many texts: 101 (maximum 100).',
    });
    await expect(keyed.translateBatch(batch(['hola'], { model_id: 'no-such-agent' }))).rejects.toEqual(new GaiaNotFoundError('Model not found.', 404));
    const streamed = async () => {
      for await (const e of keyed.streamBatch(batch(['hola', 'adios'], { model_id: 'no-such-agent' }))) expect(e).toBeUndefined();
    };
    await expect(streamed()).rejects.toBeInstanceOf(GaiaNotFoundError);
    await expect(new GaiaClient({ baseUrl: t.url }).translateBatch(batch(['hola']))).rejects.toMatchObject({ status: 401 });
  });

  it('replays a JSON batch with the same Idempotency-Key without translating or billing again', async () => {
    const a = await keyed.translateBatch(batch(['el sol', 'la luna']), { idempotencyKey: 'batch-1' });
    expect(a.results.map((x) => (x.ok ? x.translation : x.error))).toEqual(['inti', 'killa']);
    const before = await authorizations(ownerUid);
    expect(await keyed.translateBatch(batch(['el sol', 'la luna']), { idempotencyKey: 'batch-1' })).toEqual(a);
    expect(await authorizations(ownerUid)).toBe(before);
    await expect(keyed.translateBatch(batch(['otro']), { idempotencyKey: 'batch-1' })).rejects.toMatchObject({ status: 422 });
  });

  it('is in the OpenAPI document the client is checked against', async () => {
    const doc = (await (await fetch(`${t.url}/api/docs-json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/translate/batch'])).toEqual(['post']);
  });
});

/**
 * Stand-in: what only the translation stand-in can show. The real engine cannot be made to fail one text on demand
 * (`fail-midway`), and the RPC flag a batch sends (`final_only`) is visible only in the stand-in's recorded requests.
 */
describe('POST /api/translate/batch (translation stand-in)', () => {
  let t: TestApp & { url: string };
  let standIn: TranslationStandIn;
  let keyed: GaiaClient;
  let agentId: string;
  const batch = (texts: string[]): TranslateBatchRequest => ({ texts, model_id: agentId, src_lang: 'es', tgt_lang: 'qu' });

  beforeAll(async () => {
    t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule] });
    standIn = t.app.get(TranslationStandIn);
    const u = await newUser(t, 'batch-stand-in');
    keyed = u.keyed;
    agentId = (await createAgent(t.app, { ownerId: u.user.uid, ownerEmail: u.user.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'batch', public: true }))
      .id;
  });
  afterAll(() => t?.close());

  it('a JSON batch asks for the answers only (final_only), a streamed one for every event', async () => {
    const before = standIn.requests.length;
    await keyed.translateBatch(batch(['allin punchaw', 'sumaq tuta']));
    expect(standIn.requests.slice(before).map((q) => q.final_only)).toEqual([true, true]);
    for await (const e of keyed.streamBatch(batch(['allin punchaw', 'sumaq tuta']))) expect(e).toBeDefined();
    expect(standIn.requests.slice(-2).map((q) => q.final_only)).toEqual([undefined, undefined]);
  });

  it('meters per text: one billing authorization per translated text, an engine failure gives its units back', async () => {
    const before = standIn.requests.length;
    const r = await keyed.translateBatch(batch(['uno', 'fail-midway', 'tres']));
    expect(r.results.map((x) => (x.ok ? 'ok' : `${x.status} ${x.error}`))).toEqual(['ok', '502 The engine failed.', 'ok']);
    const ids = standIn.requests.slice(before).map((q) => q.requestId);
    expect(ids).toHaveLength(3);
    const failedId = standIn.requests.slice(before).find((q) => q.text === 'fail-midway')!.requestId;
    // The units of the failed text are given back as the error event passes (not before the answer).
    const rows = await waitFor(
      (): Promise<Array<{ request_id: string; status: string }>> =>
        t.dataSource.query(`SELECT request_id, status FROM billing_authorization WHERE request_id = ANY($1)`, [ids]),
      (r) => r.some((x) => x.request_id === failedId && x.status === 'released'),
      { what: 'the failed text released' },
    );
    const byId = new Map(rows.map((x) => [x.request_id, x.status]));
    expect(rows).toHaveLength(3);
    expect(byId.get(failedId)).toBe('released');
    expect(ids.filter((id) => id !== failedId).map((id) => byId.get(id))).not.toContain('released');
  });
});
