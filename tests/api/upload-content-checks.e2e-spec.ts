import { zipSync, gzipSync } from 'fflate';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { waitFor, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { uploadDocuments } from './support/documents';

/** 30 MiB of one byte: deflates to a few dozen KiB, far past the decompression ratio and size guards. */
const BOMB_BYTES = 30 * 1024 * 1024;
const fields = { src_lang: 'es', tgt_lang: 'qu', custom_prompt: 'Español - Quechua' };

/**
 * What an upload holds, checked end to end (the edge already refuses too many or too large files with 413): archives
 * that expand past the guards (zip and gzip bombs) and files whose bytes are not what their name says (magic bytes
 * first) fail their file with the reason, and nothing of them is learned.
 */
describe('uploads: decompression guards and magic bytes through the API', () => {
  let t: TestApp & { url: string };
  let owner: User;

  const finished = async (taskId: string) => {
    await t.drain();
    return (await waitFor(
      () => owner.agent.get(`/api/documents/status?task_id=${taskId}`).then((r) => r.body.task),
      (task) => task.status !== 'PROCESSING',
      { what: 'task finished' },
    )) as { status: string; errors: Array<{ file: string; message: string }>; successful_files: number };
  };

  beforeAll(async () => {
    t = await startApi({ ensure: [{ module: IngestionModule, schema: ingestionSchema }], gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'uploader');
  });
  afterAll(() => t?.close());

  it('fails a zip bomb and a gzip bomb with the guard that stopped them, learning nothing', async () => {
    const zip = Buffer.from(zipSync({ 'pares.txt': new Uint8Array(BOMB_BYTES).fill(0x61) }, { level: 9 }));
    const gz = Buffer.from(gzipSync(new Uint8Array(BOMB_BYTES).fill(0x61), { level: 9 }));
    const up = await uploadDocuments(owner, fields, [
      { name: 'bomba.zip', data: zip },
      { name: 'bomba.txt.gz', data: gz },
    ]).expect(200);
    const task = await finished(up.body.task_id);
    expect(task.status).toBe('FAILED');
    expect(task.successful_files).toBe(0);
    expect(task.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^bomba\.zip: the archive expands to more than \d+ MiB/),
      expect.stringMatching(/^bomba\.txt\.gz: the archive expands to more than \d+ MiB/),
    ]);
  });

  it('reads a file for what its bytes are: an executable named .json is refused, a renamed JSON file is read', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4096, 0)]);
    const json = JSON.stringify(Array.from({ length: 12 }, (_, i) => ({ es: `frase número ${i}`, qu: `rimay ${i}` })));
    const up = await uploadDocuments(owner, fields, [
      { name: 'pares.json', data: elf },
      { name: 'pares.txt', data: json },
    ]).expect(200);
    const task = await finished(up.body.task_id);
    expect(task.successful_files).toBe(1);
    expect(task.errors).toEqual([{ file: 'pares.json', message: expect.stringMatching(/^pares\.json: Unsupported file type/) }]);
  });
});
