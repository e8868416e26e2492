import request from 'supertest';
import { FIELD_MAX_LENGTH } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import type { OpenAiDouble } from '@gaia/testing';
import { signUp, type User } from './support/api-app';
import { learnedAgent } from './support/feedback-agent';
import { starterPlan } from './support/paid-caller';
import { startApiWithLlmDouble, type LlmApi } from './support/llm-api';

interface Answer {
  data: { translation: string };
  applied_terms: Array<{ term: string; translation: string }>;
}

/**
 * The glossary (issue 14) through the HTTP API with every real service, the LLM endpoint being the OpenAI wire
 * double: the built-in engine forces a term, the LLM engine is told the term in its prompts and repaired once when
 * it leaves it out; CSV, TSV and TBX import; owner/editor rules and limits.
 */
describe('glossary: /api/agents/:id/glossary', () => {
  let api: LlmApi;
  let t: LlmApi['t'];
  let double: OpenAiDouble;
  let owner: User;
  let stranger: User;
  let agentId: string;
  let key: string;

  const translate = async (text: string, model = agentId): Promise<Answer> =>
    (
      await request(t.url)
        .post('/api/translate/')
        .set('X-API-Key', key)
        .send({ text, model_id: model, src_lang: 'es', tgt_lang: 'qu', stream: false })
        .expect(200)
    ).body;
  const post = (u: User, path: string, body: unknown) =>
    u.agent
      .post(`/api/agents/${agentId}/glossary${path}`)
      .set('X-CSRF-Token', u.csrf)
      .send(body as object);
  const terms = async () =>
    (await owner.agent.get(`/api/agents/${agentId}/glossary`).expect(200)).body.terms as Array<{
      id: string;
      term: string;
      translation: string;
      note: string;
      case_sensitive: boolean;
    }>;

  beforeAll(async () => {
    api = await startApiWithLlmDouble();
    ({ t, double } = api);
    owner = await signUp(t.url, 'glossary');
    stranger = await signUp(t.url, 'stranger');
    await starterPlan(t, owner);
    key = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'glossary' }).expect(200)).body.api_key;
    agentId = await learnedAgent(t, owner);
  });
  afterAll(() => api?.close());

  it('the built-in engine forces a term over its phrase table and says so (applied_terms)', async () => {
    const before = await translate('la casa del agua');
    expect(before.data.translation).toContain('yaku');
    expect(before.applied_terms).toEqual([]);
    const added = await post(owner, '', { term: 'agua', translation: 'unu', note: 'dialecto del norte' }).expect(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      term: 'agua',
      translation: 'unu',
      note: 'dialecto del norte',
      case_sensitive: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const after = await translate('la casa del Agua');
    expect(after.data.translation).toContain('unu');
    expect(after.data.translation).not.toContain('yaku');
    expect(after.applied_terms).toEqual([{ term: 'Agua', translation: 'unu' }]);
    // the SSE stream's translation_complete carries it too
    const sse = await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ text: 'el agua', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' })
      .buffer(true)
      .parse((res, cb) => {
        let s = '';
        res.on('data', (c: Buffer) => (s += c.toString()));
        res.on('end', () => cb(null, s));
      });
    const complete = (sse.body as string)
      .split('\n\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l.slice('data: '.length)))
      .find((e) => e.type === 'translation_complete');
    expect(complete.applied_terms).toEqual([{ term: 'agua', translation: 'unu' }]);
  });

  it('the LLM engine gets the term in both prompts (wire double), and one repair when its answer leaves it out', async () => {
    const llmAgent = await learnedAgent(t, owner, 'LLM agent');
    await t.app
      .get<RpcClient>(RPC_CLIENT)
      .call('agents.update.v1', { agentId: llmAgent, viewer: { uid: owner.uid, email: owner.email }, patch: { engine: 'llm' } });
    await owner.agent.post(`/api/agents/${llmAgent}/glossary`).set('X-CSRF-Token', owner.csrf).send({ term: 'agua', translation: 'unu' }).expect(201);

    double.reset();
    double.enqueue({ kind: 'json', choices: ['chiri unu', 'unu'] }, { kind: 'stream', tokens: ['chiri', ' unu'] });
    const answer = await translate('el agua fría', llmAgent);
    expect(double.chatRequests).toHaveLength(2);
    for (const r of double.chatRequests) expect(r.body.messages[1].content).toContain('Required terminology');
    for (const r of double.chatRequests) expect(r.body.messages[1].content).toContain('- agua → unu');
    expect(answer).toMatchObject({ data: { translation: 'chiri unu' }, applied_terms: [{ term: 'agua', translation: 'unu' }] });

    double.reset();
    double.enqueue({ kind: 'json', choices: ['chiri yaku'] }, { kind: 'stream', tokens: ['chiri', ' yaku'] }, { kind: 'json', choices: ['chiri unu'] });
    const repaired = await translate('el agua fría', llmAgent);
    expect(double.chatRequests).toHaveLength(3);
    expect(double.chatRequests[2].body.messages[1].content).toContain('Required terms missing from the translation:\n- agua → unu');
    expect(repaired).toMatchObject({ data: { translation: 'chiri unu' }, applied_terms: [{ term: 'agua', translation: 'unu' }] });
  });

  it('edits and deletes terms; the same term twice is a conflict', async () => {
    const [agua] = await terms();
    expect((await post(owner, '', { term: 'AGUA', translation: 'yaku' }).expect(409)).body).toEqual({ error: 'This term is already in the glossary.' });
    const updated = await owner.agent
      .put(`/api/agents/${agentId}/glossary/${agua.id}`)
      .set('X-CSRF-Token', owner.csrf)
      .send({ term: 'agua', translation: 'yaku', case_sensitive: true })
      .expect(200);
    expect(updated.body).toMatchObject({ id: agua.id, translation: 'yaku', case_sensitive: true, note: '' });
    await owner.agent.delete(`/api/agents/${agentId}/glossary/${agua.id}`).set('X-CSRF-Token', owner.csrf).expect(200, { success: true });
    await owner.agent.delete(`/api/agents/${agentId}/glossary/${agua.id}`).set('X-CSRF-Token', owner.csrf).expect(404, { error: 'Term not found.' });
    expect((await translate('la casa del agua')).applied_terms).toEqual([]);
  });

  it('imports CSV, TSV and TBX (updating existing terms); refuses DOCTYPE/entities and invalid rows', async () => {
    const csv = 'term,translation,note,case_sensitive\nsol,inti,astro,\n"luna, llena",pura killa,,\n';
    expect((await post(owner, '/import', { format: 'csv', glossary_file: csv }).expect(200)).body).toEqual({ added: 2, updated: 0, total: 2 });
    expect((await post(owner, '/import', { format: 'tsv', glossary_file: 'sol\tinti tayta\nrío\tmayu\n' }).expect(200)).body).toEqual({
      added: 1,
      updated: 1,
      total: 3,
    });
    const tbx = `<?xml version="1.0" encoding="UTF-8"?><tbx type="TBX-Basic" xmlns="urn:iso:std:iso:30042:ed-2"><text><body>
      <conceptEntry id="1"><langSec xml:lang="es"><termSec><term>montaña</term></termSec></langSec><langSec xml:lang="qu"><termSec><term>urqu</term></termSec></langSec></conceptEntry>
      <conceptEntry id="2"><langSec xml:lang="qu"><termSec><term>allpa</term></termSec></langSec><langSec xml:lang="es-PE"><termSec><term>tierra</term></termSec></langSec></conceptEntry>
    </body></text></tbx>`;
    expect((await post(owner, '/import', { format: 'tbx', glossary_file: tbx }).expect(200)).body).toEqual({ added: 2, updated: 0, total: 5 });
    expect((await terms()).map((g) => `${g.term}=${g.translation}`)).toEqual([
      'luna, llena=pura killa',
      'montaña=urqu',
      'río=mayu',
      'sol=inti tayta',
      'tierra=allpa',
    ]);

    const bomb =
      '<?xml version="1.0"?><!DOCTYPE tbx [<!ENTITY a "x"><!ENTITY b "&a;&a;&a;">]><tbx><conceptEntry><langSec xml:lang="es"><term>&b;</term></langSec><langSec xml:lang="qu"><term>x</term></langSec></conceptEntry></tbx>';
    expect((await post(owner, '/import', { format: 'tbx', glossary_file: bomb }).expect(400)).body).toEqual({
      error: 'TBX files with a DOCTYPE or entity declarations are not accepted.',
    });
    expect((await post(owner, '/import', { format: 'csv', glossary_file: 'casa,wasi\nperro,\n' }).expect(400)).body).toEqual({
      error: 'Line 2: a term and its translation are required.',
    });
    await post(owner, '/import', { format: 'xlsx', glossary_file: 'a,b' }).expect(400);
    expect((await terms()).length).toBe(5); // all or nothing
  });

  it('limits every field and the file size', async () => {
    const long = 'x'.repeat(FIELD_MAX_LENGTH.term + 1);
    expect((await post(owner, '', { term: long, translation: 'y' }).expect(400)).body).toEqual({
      error: `term is too long: ${long.length.toLocaleString('en-US')} characters (maximum ${FIELD_MAX_LENGTH.term.toLocaleString('en-US')}).`,
    });
    await post(owner, '', { term: 'a', translation: 'y'.repeat(FIELD_MAX_LENGTH.translation + 1) }).expect(400);
    await post(owner, '', { term: 'a', translation: 'b', note: 'n'.repeat(FIELD_MAX_LENGTH.note + 1) }).expect(400);
    expect((await post(owner, '', { term: ' ', translation: 'b' }).expect(400)).body).toEqual({ error: 'term and translation are required.' });
    const big = `a,b\n${'c'.repeat(FIELD_MAX_LENGTH.glossary_file)}`;
    expect([400, 413]).toContain((await post(owner, '/import', { format: 'csv', glossary_file: big })).status);
  });

  it('only owners and editors: 404 for a stranger on a private agent, 403 on a public one and for the public key', async () => {
    expect((await post(stranger, '', { term: 'sol', translation: 'inti' }).expect(404)).body).toEqual({ error: 'Model not found.' });
    await stranger.agent.get(`/api/agents/${agentId}/glossary`).expect(404);
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: true }).expect(200);
    await post(stranger, '', { term: 'sol', translation: 'inti' }).expect(403);
    await post(stranger, '/import', { format: 'csv', glossary_file: 'sol,inti' }).expect(403);
    const publicKey = (await request(t.url).get('/api/public/config').expect(200)).body.publicApiKey;
    await request(t.url).get(`/api/agents/${agentId}/glossary`).set('X-API-Key', publicKey).expect(403);
    // the owner's own key works
    expect((await request(t.url).get(`/api/agents/${agentId}/glossary?limit=2`).set('X-API-Key', key).expect(200)).body).toMatchObject({
      terms: [{ term: 'luna, llena' }, { term: 'montaña' }],
      next_cursor: expect.any(String),
    });
  });
});
