import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import request from 'supertest';
import { waitFor, type TestApp } from '@gaia/testing';
import { TranslationStandIn, TranslationStandInModule } from './fixtures/translation-stand-in';
import { startApi } from './support/api-app';
import { paidCaller, type PaidCaller } from './support/paid-caller';

/** Every file under `dir` (path relative to it, '/'-separated); none when it does not exist. */
function walk(dir: string, base = dir): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory()
      ? walk(p, base)
      : [
          p
            .slice(base.length + 1)
            .split('\\')
            .join('/'),
        ];
  });
}

/**
 * The privacy promise of deletion for "Translate a file": the tasks of a deleted account (the uploaded source, the
 * saved chunks, task.json, the translated download) leave the file storage, including a task whose job is
 * translating when the account goes (the job must not write them back); another account's tasks stay.
 */
describe('account deletion removes the file translation tasks of the account', () => {
  let t: TestApp & { url: string };
  let standIn: TranslationStandIn;
  let ana: PaidCaller;
  let ben: PaidCaller;
  const langs = { srcLang: 'es', tgtLang: 'qu' };

  /** The file storage directory of the test app (read from disk, not through the port). */
  const storageDir = () => t.config.FILE_STORAGE_DIR ?? join(t.config.DATA_DIR, 'files');
  /** Stored files whose key or bytes mention one of `needles` (case-insensitive). */
  function filesMentioning(needles: string[]): string[] {
    const dir = storageDir();
    return walk(dir).filter((f) => {
      const text = `${f}\n${readFileSync(join(dir, f)).toString('utf8')}`.toLowerCase();
      return needles.some((n) => text.includes(n.toLowerCase()));
    });
  }
  const upload = async (c: PaidCaller, name: string, content: string): Promise<string> => {
    const res = await request(t.url)
      .post('/api/translate/file')
      .set('X-API-Key', c.key)
      .field('model_id', c.agentId)
      .field('src_lang', 'es')
      .field('tgt_lang', 'qu')
      .attach('file', Buffer.from(content), name)
      .expect(200);
    return res.body.task_id as string;
  };
  const status = (c: PaidCaller, taskId: string) => request(t.url).get(`/api/translate/file/status?task_id=${taskId}`).set('X-API-Key', c.key);
  const download = (c: PaidCaller, taskId: string) => request(t.url).get(`/api/translate/file/download?task_id=${taskId}`).set('X-API-Key', c.key);

  /** A COMPLETED task written as gateways from before the owner prefix stored it. */
  const putLegacyTask = async (c: PaidCaller, line: string): Promise<string> => {
    const id = randomUUID();
    const now = new Date().toISOString();
    const task = {
      ...{ id, status: 'COMPLETED', progress: 100, message: 'Translated 1 segments.', format: 'txt', file_name: 'viejo.txt', model_id: c.agentId },
      ...{ total_segments: 1, translated_segments: 1, failed_segments: 0, created_at: now, owner_id: c.user.uid, src_lang: 'es', tgt_lang: 'qu' },
      ...{ column: null, updated_at: now, next_segment: 1 },
    };
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const enc = (s: string) => new TextEncoder().encode(s);
    await storage.put(`translate-files/${id}/task.json`, enc(JSON.stringify(task)));
    await storage.put(`translate-files/${id}/source`, enc(`${line}\n`));
    await storage.put(`translate-files/${id}/result`, enc(`${line.toUpperCase()}\n`));
    return id;
  };

  beforeAll(async () => {
    t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule] });
    standIn = t.app.get(TranslationStandIn);
    ana = await paidCaller(t, 'ana-files', langs);
    ben = await paidCaller(t, 'ben-files', langs);
  });
  afterAll(() => t?.close());

  it('leaves no stored object of the deleted account’s tasks, also of a task whose job runs during the deletion', async () => {
    // A finished task (source + result) of Ana's and one of Ben's.
    const done = await upload(ana, 'carta.txt', 'anamarker uno\nanamarker dos\n');
    const bens = await upload(ben, 'nota.txt', 'benmarker uno\nbenmarker dos\n');
    await t.drain();
    expect((await status(ana, done).expect(200)).body.task).toMatchObject({ status: 'COMPLETED' });
    expect((await download(ana, done).expect(200)).text).toBe('ANAMARKER UNO\nANAMARKER DOS\n');
    // A task whose job is translating (its 2nd segment waits in the translation service) when the account goes.
    const running = await upload(ana, 'informe.txt', 'anamarker tres\noutage anamarker\nanamarker cuatro\n');
    await standIn.whenWaiting();
    // Tasks stored by gateways from before the owner prefix (`translate-files/<task>/`), one of each account.
    const anaLegacy = await putLegacyTask(ana, 'anamarker cinco');
    const benLegacy = await putLegacyTask(ben, 'benmarker tres');
    expect((await status(ana, anaLegacy).expect(200)).body.task).toMatchObject({ status: 'COMPLETED' });
    const anaTasks = [done, running, anaLegacy];
    expect(filesMentioning([...anaTasks, ana.user.uid, 'anamarker']).length).toBeGreaterThanOrEqual(8); // 3 sources, 2 results, 3 task.json, a chunk

    await ana.user.agent.post('/api/account/delete').set('X-CSRF-Token', ana.user.csrf).send({ email: ana.user.email }).expect(200);
    // The deletion's job is done (it removed the stored tasks, then the messages) before the held job goes on: what
    // that job would write now, nothing else removes.
    await waitFor(
      async () => (await t.dataSource.query(`SELECT status FROM job WHERE kind = 'gateway.scrub-account-messages'`)) as Array<{ status: string }>,
      (rows) => rows.length === 1 && rows[0].status === 'done',
      { what: 'the account scrub' },
    );
    expect(filesMentioning([...anaTasks, ana.user.uid, 'anamarker'])).toEqual([]);
    standIn.proceed();
    await t.drain();

    expect(filesMentioning([...anaTasks, ana.user.uid, 'anamarker'])).toEqual([]);
    // The account's key is gone; another account cannot see the tasks either.
    await status(ana, done).expect(401);
    await status(ben, done).expect(404);
    await status(ben, running).expect(404);
    await download(ben, done).expect(404);
    // Ben's task is untouched.
    expect(filesMentioning([bens]).length).toBeGreaterThanOrEqual(3);
    expect(filesMentioning([benLegacy])).toEqual([
      `translate-files/${benLegacy}/result`,
      `translate-files/${benLegacy}/source`,
      `translate-files/${benLegacy}/task.json`,
    ]);
    expect((await status(ben, benLegacy).expect(200)).body.task).toMatchObject({ status: 'COMPLETED' });
    expect((await download(ben, bens).expect(200)).text).toBe('BENMARKER UNO\nBENMARKER DOS\n');
  });
});
