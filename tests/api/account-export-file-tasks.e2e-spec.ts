import { unzipSync } from 'fflate';
import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { startApi } from './support/api-app';
import { TINY_ES_QU } from './fixtures/real-agent';
import { paidCaller, type PaidCaller } from './support/paid-caller';

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const parts: Buffer[] = [];
  res.on('data', (c: Buffer) => parts.push(c));
  res.on('end', () => cb(null, Buffer.concat(parts)));
};
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** The export holds the account's file translations (task, uploaded file, translated file); nothing of another account's. */
describe('account export includes the file translation tasks', () => {
  let t: TestApp & { url: string };
  let ana: PaidCaller;
  let ben: PaidCaller;

  beforeAll(async () => {
    // Real agents (learned from a tiny made-up corpus) on the real translation service.
    t = await startApi();
    ana = await paidCaller(t, 'ana-export-files', { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU });
    ben = await paidCaller(t, 'ben-export-files', { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU });
  });
  afterAll(() => t?.close());

  const upload = async (c: PaidCaller, name: string, content: string): Promise<string> =>
    (
      await request(t.url)
        .post('/api/translate/file')
        .set('X-API-Key', c.key)
        .field('model_id', c.agentId)
        .field('src_lang', 'es')
        .field('tgt_lang', 'qu')
        .attach('file', Buffer.from(content), name)
        .expect(200)
    ).body.task_id as string;

  it('file-translations/<task>/: task.json (no owner id), the uploaded file and the translated one', async () => {
    const mine = await upload(ana, 'carta.txt', 'buenos días\ngracias\n');
    const bens = await upload(ben, 'nota.txt', 'el agua\n');
    await t.drain();
    const zip = unzipSync(new Uint8Array((await ana.user.agent.get('/api/account/export').buffer(true).parse(binary).expect(200)).body as Buffer));
    const names = Object.keys(zip).sort();
    expect(names.filter((n) => n.startsWith('file-translations/'))).toEqual([
      `file-translations/${mine}/carta.qu.txt`,
      `file-translations/${mine}/carta.txt`,
      `file-translations/${mine}/task.json`,
    ]);
    expect(JSON.parse(text(zip[`file-translations/${mine}/task.json`]))).toMatchObject({ id: mine, status: 'COMPLETED', file_name: 'carta.txt' });
    expect(text(zip[`file-translations/${mine}/task.json`])).not.toContain('owner_id');
    expect(text(zip[`file-translations/${mine}/carta.txt`])).toBe('buenos días\ngracias\n');
    expect(text(zip[`file-translations/${mine}/carta.qu.txt`])).toBe('allin punchaw\nsulpayki\n');
    expect(names.some((n) => n.includes(bens))).toBe(false);
    expect(text(zip['README.txt'])).toContain('file-translations/');
  });
});
