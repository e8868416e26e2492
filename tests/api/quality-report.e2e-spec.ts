import request from 'supertest';
import type { OpenAiDouble, TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { learnedAgent } from './support/feedback-agent';
import { startApiWithLlmDouble, type LlmApi } from './support/llm-api';
import { rawText, sseEvents } from './support/sse';
import { QUALITY_CORPUS as CORPUS } from './support/quality-corpus';
import { uploadAndAwaitQuality as upload } from './support/quality-build';

/**
 * The quality report (issue 14) through the HTTP API with every real service: a build holds out 5 % of the pairs,
 * scores them with a model learned without them and stores the report per version; answers carry a confidence in
 * 0..1 and, with explain: true, the agent's own examples that shaped them.
 */
describe('quality report, confidence and explanation', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let agentId: string;
  let key: string;

  beforeAll(async () => {
    t = await startApi({ gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'quality');
    key = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'quality' }).expect(200)).body.api_key;
    const agent = await upload(t, owner, CORPUS);
    expect([agent.processing_status, agent.processing_error]).toEqual(['COMPLETED', null]);
    agentId = agent.id;
  });
  afterAll(() => t?.close());

  it('the report appears after a build: chrF, BLEU and margin of 20 held-out pairs, the version and the size category', async () => {
    const { quality } = (await owner.agent.get(`/api/agents/${agentId}`).expect(200)).body;
    expect(quality).toEqual({
      version: expect.any(String),
      measured: true,
      chrf: expect.any(Number),
      bleu: expect.any(Number),
      margin: expect.any(Number),
      held_out: 20,
      pair_count: CORPUS.length,
      category: 'tiny',
      created_at: expect.any(String),
      ab: null,
      history: [expect.objectContaining({ version: quality.version, held_out: 20, chrf: quality.chrf })],
    });
    // a compositional corpus is learned well from the other 268 pairs, and the output depends on its source
    expect(quality.chrf).toBeGreaterThan(0.5);
    expect(quality.chrf).toBeLessThanOrEqual(1);
    expect(quality.bleu).toBeGreaterThan(0.1);
    expect(quality.bleu).toBeLessThanOrEqual(1);
    expect(quality.margin).toBeGreaterThan(0.1);
  });

  it("the owner's agent list carries each agent's latest report summary; the public list never does", async () => {
    const { quality } = (await owner.agent.get(`/api/agents/${agentId}`).expect(200)).body;
    const mine = (await owner.agent.get('/api/agents/mine').expect(200)).body;
    const listed = mine.owned.find((a: { id: string }) => a.id === agentId);
    expect(listed.quality_summary).toEqual({
      version: quality.version,
      measured: true,
      chrf: quality.chrf,
      bleu: quality.bleu,
      margin: quality.margin,
      held_out: 20,
      pair_count: CORPUS.length,
      category: 'tiny',
      created_at: quality.created_at,
    });
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: true }).expect(200);
    const publicList = (await request(t.url).get('/api/agents/public').expect(200)).body.agents;
    const shown = publicList.find((a: { id: string }) => a.id === agentId);
    expect(shown).toBeDefined();
    expect(shown).not.toHaveProperty('quality_summary');
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: false }).expect(200);
  });

  it('the history grows with each rebuild', async () => {
    const before = (await owner.agent.get(`/api/agents/${agentId}`).expect(200)).body.quality;
    const rebuilt = await upload(
      t,
      owner,
      [
        { es: 'el gato negro', qu: 'yana michi' },
        { es: 'el gato blanco', qu: 'yuraq michi' },
      ],
      agentId,
    );
    expect(rebuilt.processing_status).toBe('COMPLETED');
    const after = rebuilt.quality;
    expect(after.version).not.toBe(before.version);
    expect(after.history.map((h: { version: string }) => h.version)).toEqual([before.version, after.version]);
    expect(after.pair_count).toBeGreaterThan(before.pair_count);
  });

  it('answers carry a confidence in 0..1 (JSON and SSE) and, with explain: true, real examples of the agent', async () => {
    const body = { text: 'el perro grande', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' };
    const plain = (
      await request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', key)
        .send({ ...body, stream: false })
        .expect(200)
    ).body;
    expect(plain.confidence).toBeGreaterThanOrEqual(0);
    expect(plain.confidence).toBeLessThanOrEqual(1);
    expect(plain.explanation).toBeUndefined();

    const explained = (
      await request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', key)
        .send({ ...body, text: 'mi pájaro rojo', stream: false, explain: true })
        .expect(200)
    ).body;
    expect(explained.explanation.examples.length).toBeGreaterThan(0);
    const corpus = new Set(CORPUS.map((p) => `${p.es}\t${p.qu}`));
    for (const e of explained.explanation.examples) {
      expect(corpus.has(`${e.source}\t${e.target}`)).toBe(true);
      expect(typeof e.score).toBe('number');
    }
    expect(Array.isArray(explained.explanation.lexicon)).toBe(true);
    expect(explained.explanation.glossary).toEqual([]);

    const sse = await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ ...body, stream: true, explain: true })
      .buffer(true)
      .parse(rawText)
      .expect(200);
    const done = sseEvents(sse.body as string).find((e) => e.type === 'translation_complete') as { confidence: number; explanation: { examples: unknown[] } };
    expect(done.confidence).toBeGreaterThanOrEqual(0);
    expect(done.confidence).toBeLessThanOrEqual(1);
    expect(done.explanation.examples.length).toBeGreaterThan(0);
  });

  it('an agent under 200 pairs is too small to measure', async () => {
    const small = await learnedAgent(t, owner);
    const { quality } = (await owner.agent.get(`/api/agents/${small}`).expect(200)).body;
    expect(quality).toMatchObject({ measured: false, held_out: 0, chrf: null, bleu: null, margin: null, category: 'tiny' });
  });
});

/**
 * With an LLM configured (the OpenAI wire double), the same held-out pairs compare both engines after the build. The
 * double plays an LLM that knows the language: it answers each source with its reference translation.
 */
describe('quality report: LLM A/B on the held-out pairs', () => {
  let api: LlmApi;
  let t: LlmApi['t'];
  let double: OpenAiDouble;
  let owner: User;
  const reference = new Map(CORPUS.map((p) => [p.es, p.qu]));
  const sourceOf = (body: { messages?: Array<{ content?: unknown }> }): string => {
    const last = String(body.messages?.[body.messages.length - 1]?.content ?? '');
    return /<source>\n([\s\S]*?)\n<\/source>/.exec(last)?.[1] ?? '';
  };

  beforeAll(async () => {
    api = await startApiWithLlmDouble();
    ({ t, double } = api);
    double.fallback = (body) => {
      const answer = reference.get(sourceOf(body)) ?? 'no sé';
      return body?.stream ? { kind: 'stream', tokens: [answer] } : { kind: 'json', choices: [answer] };
    };
    owner = await signUp(t.url, 'quality-ab');
  });
  afterAll(() => api?.close());

  it('runs after the build as a background step, bounded to the held-out pairs, and shows both engines side by side', async () => {
    const agent = await upload(t, owner, CORPUS);
    expect(agent.processing_status).toBe('COMPLETED');
    await t.drain();
    const { quality } = (await owner.agent.get(`/api/agents/${agent.id}`).expect(200)).body;
    expect(quality.ab).toEqual({
      builtin: { chrf: expect.any(Number), bleu: expect.any(Number), margin: expect.any(Number) },
      llm: { chrf: expect.any(Number), bleu: expect.any(Number), margin: expect.any(Number) },
      pairs: quality.held_out,
      created_at: expect.any(String),
    });
    // the built-in side is the build's own measurement on the same pairs; the LLM that knows the language wins
    expect(quality.ab.builtin.chrf).toBeCloseTo(quality.chrf, 6);
    expect(quality.ab.llm.chrf).toBeCloseTo(1, 6);
    expect(quality.ab.llm.chrf).toBeGreaterThan(quality.ab.builtin.chrf);
    // every held-out source went to the LLM (and nothing else: the A/B is bounded to them)
    const asked = new Set(double.requests.map((r) => sourceOf(r.body)).filter(Boolean));
    expect(asked.size).toBe(quality.held_out);
    for (const s of asked) expect(reference.has(s)).toBe(true);
  });
});
