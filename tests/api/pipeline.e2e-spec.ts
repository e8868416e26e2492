import request from 'supertest';
import { io, type Socket } from 'socket.io-client';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { TranslationModule } from '@gaia/translation/feature';
import { waitFor, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { rawText, sseEvents } from './support/sse';
import { uploadDocuments } from './support/documents';
import { TINY_ES_QU } from './fixtures/real-agent';

/** The tiny corpus as a JSON upload whose keys are the language codes. */
const PAIRS = TINY_ES_QU.map(({ source, target }) => ({ es: source, qu: target }));

/**
 * The whole path behind the edge, with every real service (agents, ingestion, retrieval, translation,
 * billing) in one process: upload → processing pushed over Socket.IO → agent learned → translate with a
 * key (SSE and JSON) → publish → public key → download → delete. Domains the platform does not compose
 * yet are added the same way (`ensure`).
 */
describe('pipeline: upload, learn, translate, share, delete (all real services)', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let stranger: User;
  let socket: Socket;
  let agentId: string;
  let key: string;
  const progress: Array<{ id: string; status: string; progress: number }> = [];
  const updates: Array<{ id: string; processing_status: string | null }> = [];

  beforeAll(async () => {
    t = await startApi({
      ensure: [
        { module: IngestionModule, schema: ingestionSchema },
        { module: TranslationModule.forRoot({ llm: null }), schema: { name: 'translation-none', entities: [], migrations: [] } },
      ],
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
    });
    owner = await signUp(t.url, 'pipeline');
    stranger = await signUp(t.url, 'outsider');
    key = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'pipeline' }).expect(200)).body.api_key;
    socket = io(t.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: owner.cookie }, reconnection: false, forceNew: true });
    socket.on('task_progress', (p) => progress.push(p));
    socket.on('agent_updated', (p) => updates.push(p));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  });

  afterAll(async () => {
    socket?.disconnect();
    await t?.close();
  });

  it('creates an agent from a JSON upload and pushes its progress and updates to the owner', async () => {
    const up = await uploadDocuments(owner, { src_lang: 'es', tgt_lang: 'qu', custom_prompt: 'Español → Quechua' }, [
      { name: 'saludos.json', data: JSON.stringify(PAIRS) },
    ]).expect(200);
    agentId = up.body.model_id;
    await t.drain();
    const agent = await waitFor(
      () => owner.agent.get(`/api/agents/${agentId}`).then((r) => r.body),
      (a) => a.processing_status === 'COMPLETED' || a.processing_status === 'FAILED',
      { what: 'agent learned' },
    );
    expect(agent).toMatchObject({ id: agentId, processing_status: 'COMPLETED', public: false, uid: owner.uid });
    const status = await owner.agent.get(`/api/documents/status?task_id=${up.body.task_id}`).expect(200);
    expect(status.body.task).toMatchObject({ status: 'COMPLETED', model_id: agentId, successful_files: 1 });
    // Pushed over the socket (events drained above): progress of this task and updates of this agent.
    expect(progress.filter((p) => p.id === up.body.task_id).length).toBeGreaterThan(0);
    expect(updates.some((u) => u.id === agentId)).toBe(true);
  });

  it('translates with the owner key (SSE and JSON) and meters the call', async () => {
    const body = { text: 'buenos días', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' };
    const sse = await request(t.url).post('/api/translate/').set('X-API-Key', key).send(body).buffer(true).parse(rawText).expect(200);
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = sseEvents(sse.body as unknown as string);
    const last = events.at(-1)!;
    expect(last['type']).toBe('translation_complete');
    expect(String(last['final_translation']).length).toBeGreaterThan(0);
    const json = await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ ...body, stream: false })
      .expect(200);
    expect(json.body).toMatchObject({ success: true, source_text: 'buenos días', source_language: 'es', target_language: 'qu' });
    expect(json.body.data.translation.length).toBeGreaterThan(0);
    await t.drain();
    const keys = (await owner.agent.get('/api/api-keys/list/').expect(200)).body.api_keys;
    const usage = await owner.agent.get(`/api/api-keys/usage/?key_id=${keys[0].key_id}`).expect(200);
    expect(usage.body.usage.total_requests).toBe(2);
    expect(usage.body.usage.requests[0].words).toBe(2);
  });

  it('streams the engine phases in order (status events with phase) over SSE and Socket.IO; the raw confidence stays inside', async () => {
    const body = { text: 'buenas noches', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' };
    const phases = (events: Array<Record<string, unknown>>) => events.flatMap((e) => (e['type'] === 'status' && e['phase'] ? [e['phase']] : []));
    const sse = sseEvents(
      (await request(t.url).post('/api/translate/').set('X-API-Key', key).send(body).buffer(true).parse(rawText).expect(200)).body as unknown as string,
    );
    expect(phases(sse)).toEqual(['retrieve', 'candidates', 'refine']);
    expect(sse.at(-1)).toMatchObject({ type: 'translation_complete', confidence: expect.any(Number) });
    expect(sse.at(-1)).not.toHaveProperty('raw_confidence');
    const overSocket: Array<Record<string, unknown>> = [];
    const done = new Promise<void>((resolve) => {
      const onEvent = (e: Record<string, unknown>) => {
        overSocket.push(e);
        if (e['type'] !== 'translation_complete' && e['type'] !== 'error') return;
        socket.off('translation_event', onEvent);
        resolve();
      };
      socket.on('translation_event', onEvent);
    });
    expect(await socket.emitWithAck('translate', body)).toEqual({ ok: true });
    await done;
    expect(phases(overSocket)).toEqual(['retrieve', 'candidates', 'refine']);
    expect(overSocket.at(-1)).toMatchObject({ type: 'translation_complete', final_translation: sse.at(-1)!['final_translation'] });
  });

  it('the public key reaches the agent only once it is public; a stranger can then download it', async () => {
    const publicKey = (await request(t.url).get('/api/public/config').expect(200)).body.publicApiKey;
    const body = { text: 'gracias', model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false };
    await request(t.url).post('/api/translate/').set('X-API-Key', publicKey).send(body).expect(404);
    await stranger.agent.get(`/api/models/download?model_id=${agentId}`).expect(404);
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: true }).expect(200);
    await request(t.url).post('/api/translate/').set('X-API-Key', publicKey).send(body).expect(200);
    expect((await request(t.url).get('/api/agents/public').expect(200)).body.agents.map((a: { id: string }) => a.id)).toContain(agentId);
    const zip = await stranger.agent.get(`/api/models/download?model_id=${agentId}`).expect(200);
    expect(zip.headers['content-type']).toBe('application/zip');
  });

  it('deleting the agent (owner) makes it unknown everywhere', async () => {
    await owner.agent.post('/api/delete-model/').set('X-CSRF-Token', owner.csrf).send({ model_id: agentId }).expect(200);
    await t.drain();
    await request(t.url).get(`/api/agents/${agentId}`).expect(404);
    expect(
      (
        await request(t.url)
          .post('/api/translate/')
          .set('X-API-Key', key)
          .send({ text: 'gracias', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' })
          .expect(404)
      ).body,
    ).toEqual({ error: 'Model not found.' });
    await owner.agent.get(`/api/models/download?model_id=${agentId}`).expect(404);
  });
});
