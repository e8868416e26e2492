import request from 'supertest';
import { io, type Socket } from 'socket.io-client';
import { FIELD_MAX_LENGTH } from '@gaia/contracts';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { uploadDocuments } from './support/documents';
import { realAgent, TINY_ES_QU } from './fixtures/real-agent';

/** Every input field is length-limited (one table in the contracts, applied by the gateway): clear 400s naming the field. */
describe('input length limits', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let agentId: string;
  let key: string;
  beforeAll(async () => {
    t = await startApi({ gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'limits');
    // A real agent (learned from a tiny made-up corpus) on the real translation service.
    agentId = await realAgent(t, owner, { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU });
    key = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'k' }).expect(200)).body.api_key;
  });
  afterAll(() => t?.close());

  const long = (n: number) => 'x'.repeat(n);
  const tooLong = (field: string, n: number, max: number) => ({
    error: `${field} is too long: ${n.toLocaleString('en-US')} characters (maximum ${max.toLocaleString('en-US')}).`,
  });

  it('translate: a 5,000-character src_lang is a 400 naming the field, before any quota is used (HTTP and Socket.IO)', async () => {
    const body = { text: 'buenos días', model_id: agentId, src_lang: long(5000), tgt_lang: 'qu', stream: false };
    expect((await request(t.url).post('/api/translate/').set('X-API-Key', key).send(body).expect(400)).body).toEqual(
      tooLong('src_lang', 5000, FIELD_MAX_LENGTH.src_lang),
    );
    const s: Socket = io(t.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: owner.cookie }, reconnection: false, forceNew: true });
    try {
      await new Promise<void>((resolve, reject) => s.once('connect', () => resolve()).once('connect_error', reject));
      expect(await s.emitWithAck('translate', { ...body, src_lang: 'es', tgt_lang: long(100) })).toEqual({
        ok: false,
        error: tooLong('tgt_lang', 100, FIELD_MAX_LENGTH.tgt_lang).error,
      });
    } finally {
      s.close();
    }
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM billing_authorization`);
    expect(n).toBe(0);
    // At the limit it passes validation (then the agent's own languages apply).
    const ok = await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ ...body, src_lang: 'es', tgt_lang: 'qu' })
      .expect(200);
    expect(ok.body.data.translation).toBe('allin punchaw');
  });

  it('team: a 10 KB member name and a 300-character email are refused', async () => {
    expect(
      (
        await owner.agent
          .post('/api/team/members')
          .set('X-CSRF-Token', owner.csrf)
          .send({ name: long(10_000), email: 'ed@example.org' })
          .expect(400)
      ).body,
    ).toEqual(tooLong('name', 10_000, FIELD_MAX_LENGTH.name));
    expect(
      (
        await owner.agent
          .post('/api/team/members')
          .set('X-CSRF-Token', owner.csrf)
          .send({ name: 'Ed', email: `${long(300)}@example.org` })
          .expect(400)
      ).body.error,
    ).toMatch(/^email is too long/);
  });

  it('agents: a 500 KB custom_prompt is refused on upload (multipart) and on edit; core_memory too', async () => {
    const res = await uploadDocuments(owner, { src_lang: 'es', tgt_lang: 'qu', custom_prompt: long(500_000) }, [
      { name: 'pairs.json', data: '[{"source":"hola","target":"napaykullayki"}]' },
    ]).expect(400);
    expect(res.body).toEqual(tooLong('custom_prompt', 500_000, FIELD_MAX_LENGTH.custom_prompt));
    expect(
      (
        await owner.agent
          .patch(`/api/agents/${agentId}`)
          .set('X-CSRF-Token', owner.csrf)
          .send({ custom_prompt: long(FIELD_MAX_LENGTH.custom_prompt + 1) })
          .expect(400)
      ).body.error,
    ).toMatch(/^custom_prompt is too long/);
    expect(
      (
        await owner.agent
          .patch(`/api/agents/${agentId}`)
          .set('X-CSRF-Token', owner.csrf)
          .send({ core_memory: long(FIELD_MAX_LENGTH.core_memory + 1) })
          .expect(400)
      ).body.error,
    ).toMatch(/^core_memory is too long/);
    await owner.agent
      .patch(`/api/agents/${agentId}`)
      .set('X-CSRF-Token', owner.csrf)
      .send({ custom_prompt: long(FIELD_MAX_LENGTH.custom_prompt) })
      .expect(200);
  });

  it('keys, queries and path parameters: a long key name, task_id and agent id are refused', async () => {
    expect(
      (
        await owner.agent
          .post('/api/api-keys/create/')
          .set('X-CSRF-Token', owner.csrf)
          .send({ name: long(1000) })
          .expect(400)
      ).body,
    ).toEqual(tooLong('name', 1000, FIELD_MAX_LENGTH.name));
    expect((await owner.agent.get(`/api/documents/status?task_id=${long(5000)}`).expect(400)).body).toEqual(tooLong('task_id', 5000, FIELD_MAX_LENGTH.task_id));
    expect((await owner.agent.get(`/api/agents/${long(1000)}`).expect(400)).body).toEqual(tooLong('id', 1000, FIELD_MAX_LENGTH.id));
    expect(
      (
        await owner.agent
          .patch('/api/account')
          .set('X-CSRF-Token', owner.csrf)
          .send({ displayName: long(201) })
          .expect(400)
      ).body.error,
    ).toMatch(/displayName/);
  });
});
