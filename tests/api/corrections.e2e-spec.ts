import request from 'supertest';
import { unzipSync } from 'fflate';
import { FIELD_MAX_LENGTH } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { learnedAgent } from './support/feedback-agent';
import { starterPlan } from './support/paid-caller';

/**
 * Corrections ("Suggest a better translation", issue 14) through the HTTP API with every real service: a
 * correction changes the very next answer, a similar text uses it as an example at once, undo restores the
 * answer, the dataset zip carries it, the next learning run trains on it; only owners and editors may correct.
 */
describe('corrections: POST/GET/DELETE /api/agents/:id/corrections', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let stranger: User;
  let agentId: string;
  let ownerKey: string;
  let publicKey: string;

  const translate = async (text: string, key = ownerKey) => {
    const r = await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ text, model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false, explain: true })
      .expect(200);
    return r.body as { data: { translation: string }; applied_terms: unknown[]; explanation?: { examples: Array<{ source: string; target: string }> } };
  };
  const exampleTargets = async (text: string) => ((await translate(text)).explanation?.examples ?? []).map((e) => e.target);
  const correct = (u: User, body: Record<string, unknown>) => u.agent.post(`/api/agents/${agentId}/corrections`).set('X-CSRF-Token', u.csrf).send(body);

  beforeAll(async () => {
    t = await startApi({ gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'corrector');
    await starterPlan(t, owner);
    stranger = await signUp(t.url, 'stranger');
    ownerKey = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'feedback' }).expect(200)).body.api_key;
    publicKey = (await request(t.url).get('/api/public/config').expect(200)).body.publicApiKey;
    agentId = await learnedAgent(t, owner);
  });
  afterAll(() => t?.close());

  it('a correction changes the very next answer to the same text, and undo restores the answer', async () => {
    const before = (await translate('el perro grande')).data.translation;
    expect(before).toBe('hatun allqu');
    const added = await correct(owner, { source: 'el perro grande', translation: before, corrected: 'hatun allqu kachkan' }).expect(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      source: 'el perro grande',
      translation: 'hatun allqu',
      corrected: 'hatun allqu kachkan',
      author_uid: owner.uid,
      author_email: owner.email.toLowerCase(),
      created_at: expect.any(String),
    });
    expect((await translate('el perro grande')).data.translation).toBe('hatun allqu kachkan');
    // identical ignoring case and punctuation
    expect((await translate('El perro grande.')).data.translation).toMatch(/^hatun allqu kachkan/i);

    await owner.agent.delete(`/api/agents/${agentId}/corrections/${added.body.id}`).set('X-CSRF-Token', owner.csrf).expect(200, { success: true });
    expect((await translate('el perro grande')).data.translation).toBe(before);
    await owner.agent
      .delete(`/api/agents/${agentId}/corrections/${added.body.id}`)
      .set('X-CSRF-Token', owner.csrf)
      .expect(404, { error: 'Correction not found.' });
  });

  it('a similar text gets the correction as an example at once (no rebuild)', async () => {
    const before = (await translate('mi perro grande')).data.translation;
    expect(before).not.toContain('sumaq');
    expect(await exampleTargets('mi perro grande come')).not.toContain('sumaq hatun allquy');
    await correct(owner, { source: 'mi perro grande', translation: before, corrected: 'sumaq hatun allquy' }).expect(201);
    expect((await translate('mi perro grande')).data.translation).toBe('sumaq hatun allquy');
    // the engine's examples for a similar text now include the correction (explain: true lists them)
    expect(await exampleTargets('mi perro grande come')).toContain('sumaq hatun allquy');
    expect(await exampleTargets('tu perro grande')).toContain('sumaq hatun allquy');
  });

  it('works with the owner API key, lists who/when/before/after newest first with a cursor', async () => {
    const viaKey = await request(t.url)
      .post(`/api/agents/${agentId}/corrections`)
      .set('X-API-Key', ownerKey)
      .send({ source: 'la luna', translation: 'killa', corrected: 'mama killa' })
      .expect(201);
    expect(viaKey.body.author_uid).toBe(owner.uid);
    const page1 = await owner.agent.get(`/api/agents/${agentId}/corrections?limit=1`).expect(200);
    expect(page1.body.corrections).toEqual([viaKey.body]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await request(t.url)
      .get(`/api/agents/${agentId}/corrections?limit=1&cursor=${page1.body.next_cursor}`)
      .set('X-API-Key', ownerKey)
      .expect(200);
    expect(page2.body.corrections.map((c: { source: string }) => c.source)).toEqual(['mi perro grande']);
    expect(page2.body.next_cursor).toBeNull();
  });

  it('refuses strangers (404 private, 403 reader of a public agent), the shared public key, and missing CSRF', async () => {
    const body = { source: 'el sol', translation: 'inti', corrected: 'tayta inti' };
    expect((await correct(stranger, body).expect(404)).body).toEqual({ error: 'Model not found.' });
    await stranger.agent.get(`/api/agents/${agentId}/corrections`).expect(404);
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: true }).expect(200);
    expect((await correct(stranger, body).expect(403)).body).toEqual({ error: 'You do not have permission to modify this agent.' });
    const someId = (await owner.agent.get(`/api/agents/${agentId}/corrections`).expect(200)).body.corrections[0].id;
    await stranger.agent.delete(`/api/agents/${agentId}/corrections/${someId}`).set('X-CSRF-Token', stranger.csrf).expect(403);
    await request(t.url).post(`/api/agents/${agentId}/corrections`).set('X-API-Key', publicKey).send(body).expect(403);
    await request(t.url).post(`/api/agents/${agentId}/corrections`).send(body).expect(401);
    await owner.agent.post(`/api/agents/${agentId}/corrections`).send(body).expect(403);
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: false }).expect(200);
    // a correction id of another agent is not found through this one
    const otherAgent = await learnedAgent(t, stranger, 'otro');
    const foreign = await stranger.agent.post(`/api/agents/${otherAgent}/corrections`).set('X-CSRF-Token', stranger.csrf).send(body).expect(201);
    await owner.agent.delete(`/api/agents/${agentId}/corrections/${foreign.body.id}`).set('X-CSRF-Token', owner.csrf).expect(404);
  });

  it('limits every field (FIELD_MAX_LENGTH) and requires source and corrected', async () => {
    const long = 'a'.repeat(FIELD_MAX_LENGTH.corrected + 1);
    expect((await correct(owner, { source: 'el sol', translation: 'inti', corrected: long }).expect(400)).body).toEqual({
      error: `corrected is too long: ${long.length.toLocaleString('en-US')} characters (maximum ${FIELD_MAX_LENGTH.corrected.toLocaleString('en-US')}).`,
    });
    await correct(owner, { source: 'a'.repeat(FIELD_MAX_LENGTH.source + 1), corrected: 'x' }).expect(400);
    expect((await correct(owner, { source: '  ', corrected: 'x' }).expect(400)).body).toEqual({ error: 'source and corrected are required.' });
  });

  it('the dataset zip holds the corrections, and the next learning run trains on them', async () => {
    const zip = await owner.agent
      .get(`/api/models/download?model_id=${agentId}`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const files = unzipSync(new Uint8Array(zip.body as Buffer));
    const lines = new TextDecoder()
      .decode(files['corrections.jsonl'])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'la luna', translation: 'killa', corrected: 'mama killa' })]));

    // a new upload is a learning run: the corrections join the training pairs (core memory and index); they stay in
    // the learned memory after an undo, until the next learning run
    await owner.agent
      .post('/api/update-model/')
      .set('X-CSRF-Token', owner.csrf)
      .field('model_id', agentId)
      .field('src_lang', 'es')
      .field('tgt_lang', 'qu')
      .field('custom_prompt', 'Español → Quechua')
      .field('file_count', '1')
      .attach('parallel_sentences_0', Buffer.from(JSON.stringify([{ es: 'el gato', qu: 'michi' }])), 'mas.json')
      .expect(200);
    await t.drain();
    expect((await owner.agent.get(`/api/agents/${agentId}`).expect(200)).body.processing_status).toBe('COMPLETED');
    const list = (await owner.agent.get(`/api/agents/${agentId}/corrections`).expect(200)).body.corrections as Array<{ id: string; source: string }>;
    for (const c of list) await owner.agent.delete(`/api/agents/${agentId}/corrections/${c.id}`).set('X-CSRF-Token', owner.csrf).expect(200);
    const { hits } = await t.app.get<RpcClient>(RPC_CLIENT).call('retrieval.search.v1', { agentId, query: 'mi perro grande', k: 3 });
    expect(hits).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: expect.stringMatching(/^correction-/), source: 'mi perro grande', target: 'sumaq hatun allquy' })]),
    );
  });

  it('deleting the agent removes its corrections and glossary', async () => {
    await owner.agent.post(`/api/agents/${agentId}/glossary`).set('X-CSRF-Token', owner.csrf).send({ term: 'sol', translation: 'inti' }).expect(201);
    await correct(owner, { source: 'el sol', corrected: 'tayta inti' }).expect(201);
    await owner.agent.post('/api/delete-model/').set('X-CSRF-Token', owner.csrf).send({ model_id: agentId }).expect(200);
    const rows = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM agent_correction WHERE agent_id = $1)::int AS corrections, (SELECT count(*) FROM agent_glossary_term WHERE agent_id = $1)::int AS terms`,
      [agentId],
    );
    expect(rows[0]).toEqual({ corrections: 0, terms: 0 });
  });
});
