import request from 'supertest';
import { Client } from 'pg';
import { signUp, type User } from './support/api-app';
import { startApiWithLlmDouble, type LlmApi } from './support/llm-api';
import { QUALITY_CORPUS as CORPUS } from './support/quality-corpus';
import { uploadAndAwaitQuality } from './support/quality-build';

type UsageRow = { request_id: string; user_id: string | null; key_id: string | null; agent_id: string; words: number; engine: string };

/**
 * The LLM A/B of a measured build translates up to 50 held-out pairs with the LLM engine: like every translation
 * path it is metered to the agent's owner (one authorization of the owner's plan, its usage recorded), and an owner
 * whose plan is used up for the day gets no A/B (no LLM call is made).
 */
describe('quality A/B metering', () => {
  let api: LlmApi;
  let owner: User;
  let db: Client;
  const reference = new Map(CORPUS.map((p) => [p.es, p.qu]));
  const sourceOf = (body: { messages?: Array<{ content?: unknown }> }): string => {
    const last = String(body.messages?.[body.messages.length - 1]?.content ?? '');
    return /<source>\n([\s\S]*?)\n<\/source>/.exec(last)?.[1] ?? '';
  };
  const abUsage = async (agentId: string): Promise<UsageRow[]> =>
    (
      await db.query<UsageRow>(
        `SELECT request_id, user_id, key_id, agent_id, words, engine FROM billing_usage WHERE agent_id = $1 AND request_id LIKE 'quality-ab:%' ORDER BY request_id`,
        [agentId],
      )
    ).rows;

  /** Uploads pairs (a new agent, or more pairs of `modelId`) and waits for the new version's quality report and every job after it. */
  async function build(pairs: Array<{ es: string; qu: string }>, modelId?: string) {
    const agent = await uploadAndAwaitQuality(api.t, owner, pairs, modelId);
    await api.t.drain(); // the A/B job queued by the measured build
    return (await owner.agent.get(`/api/agents/${agent.id}`).expect(200)).body;
  }

  beforeAll(async () => {
    api = await startApiWithLlmDouble();
    api.double.fallback = (body) => {
      const answer = reference.get(sourceOf(body)) ?? 'no sé';
      return body?.stream ? { kind: 'stream', tokens: [answer] } : { kind: 'json', choices: [answer] };
    };
    db = new Client({ connectionString: api.t.db.url });
    await db.connect();
    owner = await signUp(api.t.url, 'ab-meter');
  });
  afterAll(async () => {
    await db?.end();
    await api?.close();
  });

  it("records the A/B's usage to the owner, consumes the owner's plan, and skips the A/B once the plan is used up", async () => {
    const agent = await build(CORPUS);
    expect(agent.quality.ab).not.toBeNull();
    const [usage, ...more] = await abUsage(agent.id);
    expect(more).toEqual([]);
    expect(usage).toMatchObject({ request_id: `quality-ab:${agent.id}:${agent.quality.version}`, user_id: owner.uid, key_id: null, engine: 'llm' });
    expect(usage.words).toBeGreaterThan(agent.quality.ab.pairs); // every compared source's words (at least two each)

    // The A/B took one of the Free plan's 10 daily calls: the owner's key has 9 left, then 429.
    const key = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'ab' }).expect(200)).body.api_key;
    const body = { text: 'el perro grande', model_id: agent.id, src_lang: 'es', tgt_lang: 'qu', stream: false };
    for (let i = 0; i < 9; i++) await request(api.t.url).post('/api/translate/').set('X-API-Key', key).send(body).expect(200);
    const refused = await request(api.t.url).post('/api/translate/').set('X-API-Key', key).send(body).expect(429);
    expect(refused.body.error).toMatch(/^Daily limit reached/);

    // Over quota: the next build is measured, but its A/B is skipped (no LLM call, nothing recorded).
    const llmCalls = api.double.requests.length;
    const rebuilt = await build(
      [
        { es: 'el gato negro', qu: 'yana michi' },
        { es: 'el gato blanco', qu: 'yuraq michi' },
      ],
      agent.id,
    );
    expect(rebuilt.quality.version).not.toBe(agent.quality.version);
    expect(rebuilt.quality.measured).toBe(true);
    expect(rebuilt.quality.ab).toBeNull();
    expect(api.double.requests.length).toBe(llmCalls);
    expect((await abUsage(agent.id)).map((u) => u.request_id)).toEqual([usage.request_id]);
  });
});
