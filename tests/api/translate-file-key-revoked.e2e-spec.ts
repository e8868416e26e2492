import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { TranslationStandIn, TranslationStandInModule } from './fixtures/translation-stand-in';
import { startApi } from './support/api-app';
import { paidCaller, type PaidCaller } from './support/paid-caller';

/**
 * A file translated with an API key translates as that key: once the key is revoked, the task's job translates no
 * further chunk (like any request with the key) and the task ends FAILED with the revocation as its message.
 */
describe('file translation with a key revoked while its job runs', () => {
  let t: TestApp & { url: string };
  let standIn: TranslationStandIn;
  let ana: PaidCaller;

  beforeAll(async () => {
    t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule] });
    standIn = t.app.get(TranslationStandIn);
    ana = await paidCaller(t, 'revoked-files', { srcLang: 'es', tgtLang: 'qu' });
  });
  afterAll(() => t?.close());

  it('stops after the chunk that was translating: FAILED, the later chunks never asked', async () => {
    // Segment 0 at upload, chunk [1, 21) with the held segment last, chunk [21, 30) after it.
    const lines = ['primero', ...Array.from({ length: 19 }, (_, i) => `antes ${i}`), 'outage retenido', ...Array.from({ length: 9 }, (_, i) => `despues ${i}`)];
    const started = await request(t.url)
      .post('/api/translate/file')
      .set('X-API-Key', ana.key)
      .field('model_id', ana.agentId)
      .field('src_lang', 'es')
      .field('tgt_lang', 'qu')
      .attach('file', Buffer.from(`${lines.join('\n')}\n`), 'largo.txt')
      .expect(200);
    const taskId = started.body.task_id as string;
    await standIn.whenWaiting();
    const keyId = ((await ana.user.agent.get('/api/api-keys/list').expect(200)).body.api_keys as Array<{ key_id: string }>)[0].key_id;
    await ana.user.agent.post('/api/api-keys/revoke').set('X-CSRF-Token', ana.user.csrf).send({ key_id: keyId }).expect(200);
    standIn.proceed();
    await t.drain();

    const task = (await ana.user.agent.get(`/api/translate/file/status?task_id=${taskId}`).expect(200)).body.task;
    expect(task).toMatchObject({ status: 'FAILED', message: 'This API key has been revoked.' });
    expect(standIn.requests.filter((r) => r.text.startsWith('despues'))).toEqual([]);
  });
});
