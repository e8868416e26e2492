import type { TestApp } from '@gaia/testing';
import {
  GaiaAuthenticationError,
  GaiaClient,
  GaiaConflictError,
  GaiaNotFoundError,
  GaiaRateLimitError,
  GaiaServerError,
  GaiaValidationError,
} from '@gaia/client';
import type { TranslationEventDto } from '@gaia/contracts';
import { startApi } from './support/api-app';
import { TranslationStandIn, TranslationStandInModule } from './fixtures/translation-stand-in';
import { createAgent } from './support/agents';

/**
 * @gaia/client against a real gateway (platform composition, real billing and agents; the translation
 * service is the RPC stand-in that upper-cases words): session, keys, JSON and streamed translation,
 * typed errors, Idempotency-Key on writes, opt-in retry after Retry-After.
 */
describe('@gaia/client against the gateway', () => {
  let t: TestApp & { url: string };
  let standIn: TranslationStandIn;
  let owner: GaiaClient;
  let keyed: GaiaClient;
  let agentId: string;
  let keyId: string;
  let seq = 0;

  const signedUp = async (prefix: string) => {
    const c = new GaiaClient({ baseUrl: t.url });
    const { user } = await c.signUp({
      email: `${prefix}-${Date.now().toString(36)}-${seq++}@example.org`,
      password: 'correct horse battery',
      fullName: `${prefix} person`,
    });
    return { c, user };
  };
  const req = (text = 'allin punchaw') => ({ text, model_id: agentId, src_lang: 'es', tgt_lang: 'qu' });

  beforeAll(async () => {
    t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule], env: { PUBLIC_TRANSLATE_PER_IP_PER_DAY: '1' } });
    standIn = t.app.get(TranslationStandIn);
    const o = await signedUp('client-owner');
    owner = o.c;
    agentId = (
      await createAgent(t.app, { ownerId: o.user.uid, ownerEmail: o.user.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'Español → Quechua', public: true })
    ).id;
    const created = await owner.createApiKey('client key');
    if (!created.api_key) throw new Error('a first creation answers the secret');
    keyId = created.key.key_id;
    keyed = new GaiaClient({ baseUrl: t.url, apiKey: created.api_key });
  });
  afterAll(() => t?.close());

  it('keeps the session of signUp: account, keys, agents, usage (CSRF sent by the client)', async () => {
    expect((await owner.me()).user.email).toMatch(/^client-owner-/);
    expect((await owner.listApiKeys()).api_keys.map((k) => k.name)).toEqual(['client key']);
    expect((await owner.listMyAgents()).owned.map((a) => a.id)).toEqual([agentId]);
    expect((await owner.updateAccount({ displayName: 'Owner' })).displayName).toBe('Owner');
    expect((await owner.getAgent(agentId)).id).toBe(agentId);
    expect((await owner.publicConfig()).publicApiKey).toEqual(expect.any(String));
    expect(await owner.health()).toEqual({ status: 'ok' });
  });

  it('translates as JSON with the API key', async () => {
    expect(await keyed.translate(req())).toMatchObject({
      success: true,
      data: { translation: 'ALLIN PUNCHAW', raw_translation: 'ALLIN PUNCHAW' },
      source_text: 'allin punchaw',
      response_time: expect.any(Number),
      source_language: 'es',
      target_language: 'qu',
    });
    expect(standIn.requests.at(-1)!.caller.keyId).toBe(keyId);
  });

  it('streams a translation as an async iterator of the SSE events', async () => {
    const events: TranslationEventDto[] = [];
    for await (const e of keyed.streamTranslation(req())) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['status', 'translation_chunk', 'translation_chunk', 'translation_complete']);
    expect(events.at(-1)).toMatchObject({ final_translation: 'ALLIN PUNCHAW' });
  });

  it('breaking out of the stream cancels the translation', async () => {
    const cancelled = standIn.whenCancelled();
    const before = standIn.cancelled;
    for await (const e of keyed.streamTranslation(req('hang on'))) {
      expect(e.type).toBeDefined();
      break;
    }
    await cancelled;
    expect(standIn.cancelled).toBe(before + 1);
  });

  it("throws typed errors with the server's message and status", async () => {
    await expect(keyed.translate(req(Array.from({ length: 51 }, (_, i) => `w${i}`).join(' ')))).rejects.toEqual(
      expect.objectContaining({ name: 'GaiaValidationError', status: 400, message: 'Text is too long: 51 words (maximum 50).' }),
    );
    await expect(keyed.translate({ ...req(), model_id: 'no-such-agent' })).rejects.toBeInstanceOf(GaiaNotFoundError);
    await expect(keyed.translate({ ...req(), model_id: 'no-such-agent' })).rejects.toMatchObject({ message: 'Model not found.', status: 404 });
    await expect(new GaiaClient({ baseUrl: t.url }).translate(req())).rejects.toEqual(
      new GaiaAuthenticationError('Missing API key. Send it in the X-API-Key header.', 401),
    );
    await expect(keyed.translate(req('fail-before now'))).rejects.toMatchObject({
      status: 409,
      message: 'This agent has no trained data yet. Try again when document processing completes.',
    });
    const stream = async () => {
      for await (const e of keyed.streamTranslation(req('fail-midway'))) expect(e.type).not.toBe('error');
    };
    await expect(stream()).rejects.toEqual(expect.objectContaining({ name: 'GaiaServerError', message: 'The engine failed.' }));
    await expect(stream()).rejects.toBeInstanceOf(GaiaServerError);
    await expect(owner.getAgent('no-such-agent')).rejects.toBeInstanceOf(GaiaNotFoundError);
    expect(new GaiaValidationError('x', 400)).toBeInstanceOf(Error);
  });

  it('sends an Idempotency-Key on writes: the same key replays, another body is a conflict', async () => {
    const a = await keyed.translate(req(), { idempotencyKey: 'client-tr-1' });
    const before = standIn.requests.length;
    expect(await keyed.translate(req(), { idempotencyKey: 'client-tr-1' })).toEqual(a);
    expect(standIn.requests.length).toBe(before);
    await expect(keyed.translate(req('otro texto'), { idempotencyKey: 'client-tr-1' })).rejects.toBeInstanceOf(GaiaConflictError);
    const first = await owner.createApiKey('idem key', { idempotencyKey: 'client-key-1' });
    const replay = await owner.createApiKey('idem key', { idempotencyKey: 'client-key-1' });
    expect(replay.key).toEqual(first.key);
    expect((await owner.listApiKeys()).api_keys.filter((k) => k.name === 'idem key')).toHaveLength(1);
    // Without a chosen key every write gets its own: two creations are two keys.
    await owner.createApiKey('twice');
    await owner.createApiKey('twice');
    expect((await owner.listApiKeys()).api_keys.filter((k) => k.name === 'twice')).toHaveLength(2);
  });

  it('throws GaiaRateLimitError with Retry-After, and an opt-in retry does not wait longer than maxDelayMs', async () => {
    const publicKey = (await owner.publicConfig()).publicApiKey;
    const plain = new GaiaClient({ baseUrl: t.url, apiKey: publicKey });
    await plain.translate(req());
    const limited = await plain.translate(req()).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(GaiaRateLimitError);
    expect(limited).toMatchObject({ status: 429, message: expect.any(String) });
    expect((limited as GaiaRateLimitError).retryAfterSeconds).toBeGreaterThan(0);
    const retries: unknown[] = [];
    const impatient = new GaiaClient({ baseUrl: t.url, apiKey: publicKey, retry: { retries: 5, maxDelayMs: 10, onRetry: (i) => retries.push(i) } });
    await expect(impatient.translate(req())).rejects.toBeInstanceOf(GaiaRateLimitError);
    expect(retries).toEqual([]);
  });

  it('reads key usage metered per translation', async () => {
    await t.drain();
    const { usage } = await owner.apiKeyUsage(keyId);
    expect(usage.total_requests).toBeGreaterThanOrEqual(3);
    expect((await owner.usageSummary()).plan).toBe('Free');
    await owner.revokeApiKey(keyId);
    await expect(keyed.translate(req())).rejects.toMatchObject({ status: 401, message: 'This API key has been revoked.' });
    await owner.signOut();
    await expect(owner.me()).rejects.toBeInstanceOf(GaiaAuthenticationError);
  });
});
