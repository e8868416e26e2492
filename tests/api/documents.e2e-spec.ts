import request from 'supertest';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { waitFor, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { createAgent } from './support/agents';

const pairs = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ es: `frase ${i}`, qu: `rimay ${i}` })));

/** Multipart uploads at the edge: limits, originals stored before the answer, idempotency, status, downloads. */
describe('documents: process, status, update-model, download', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let storage: FileStorage;

  beforeAll(async () => {
    t = await startApi({
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
      // The download below is polled until the dataset is ready: not limited here (dataset-download-reuse tests the limits).
      gateway: {
        maxFileBytes: 64 * 1024,
        maxFiles: 3,
        authPerIp: [{ limit: 1000, windowSeconds: 60 }],
        datasetDownloadsPerAccount: [{ limit: 1000, windowSeconds: 60 }],
      },
    });
    storage = t.app.get(FILE_STORAGE);
    owner = await signUp(t.url, 'docs');
  });
  afterAll(() => t?.close());

  const upload = (u: User, idem?: string) => {
    let r = u.agent.post('/api/documents/process/').set('X-CSRF-Token', u.csrf);
    if (idem) r = r.set('Idempotency-Key', idem);
    return r.field('src_lang', 'es').field('tgt_lang', 'qu').field('custom_prompt', 'Español - Quechua').field('core_memory', '').field('uid', 'ignored');
  };

  it('stores every original under uploads/<id>/<n>-<name> before answering, and starts a task', async () => {
    const res = await upload(owner)
      .attach('files', Buffer.from(pairs(5)), 'pares uno.json')
      .attach('files', Buffer.from(pairs(3)), '../../etc/passwd.json')
      .expect(200);
    expect(res.body).toEqual({ task_id: expect.any(String), model_id: expect.any(String), total_files: 2 });
    const keys = (await storage.list('uploads/')).filter((k) => /\/[01]-/.test(k));
    const mine = keys.filter((k) => k.endsWith('0-pares_uno.json') || k.endsWith('1-passwd.json'));
    expect(mine).toHaveLength(2);
    expect(mine.every((k) => /^uploads\/[0-9a-f-]{36}\/[01]-[\w.-]+$/.test(k))).toBe(true);
    expect(Buffer.from(await storage.get(mine.find((k) => k.includes('0-'))!)).toString()).toBe(pairs(5));
    const status = await owner.agent.get(`/api/documents/status?task_id=${res.body.task_id}`).expect(200);
    expect(status.body.task).toMatchObject({ id: res.body.task_id, model_id: res.body.model_id, total_files: 2 });
    expect(['PROCESSING', 'COMPLETED', 'FAILED']).toContain(status.body.task.status);
  });

  it('refuses missing fields (400), oversize files (413) and too many files (413) at the edge without storing anything', async () => {
    const before = (await storage.list('uploads/')).length;
    expect((await upload(owner).expect(400)).body).toEqual({ error: 'Please fill in all required fields' });
    const missingLang = await owner.agent
      .post('/api/documents/process/')
      .set('X-CSRF-Token', owner.csrf)
      .field('src_lang', 'es')
      .attach('files', Buffer.from(pairs(1)), 'a.json')
      .expect(400);
    expect(missingLang.body).toEqual({ error: 'Please fill in all required fields' });
    const big = await upload(owner)
      .attach('files', Buffer.alloc(65 * 1024, 'a'), 'big.json')
      .expect(413);
    expect(big.body).toEqual({ error: 'File too large.' });
    const many = upload(owner);
    for (let i = 0; i < 4; i++) many.attach('files', Buffer.from(pairs(1)), `f${i}.json`);
    expect((await many.expect(413)).body).toEqual({ error: 'Too many files.' });
    expect((await storage.list('uploads/')).length).toBe(before);
  });

  it('update-model refuses too many files and an oversize file with the same 413 as documents/process, storing nothing', async () => {
    const id = (await createAgent(t.app, { ownerId: owner.uid, ownerEmail: owner.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'limits' })).id;
    const before = (await storage.list('uploads/')).length;
    const many = owner.agent.post('/api/update-model/').set('X-CSRF-Token', owner.csrf).field('model_id', id).field('file_count', '4');
    for (let i = 0; i < 4; i++) many.attach(`parallel_sentences_${i}`, Buffer.from(pairs(1)), `f${i}.json`);
    expect((await many.expect(413)).body).toEqual({ error: 'Too many files.' });
    const big = await owner.agent
      .post('/api/update-model/')
      .set('X-CSRF-Token', owner.csrf)
      .field('model_id', id)
      .field('file_count', '1')
      .attach('parallel_sentences_0', Buffer.alloc(65 * 1024, 'a'), 'big.json')
      .expect(413);
    expect(big.body).toEqual({ error: 'File too large.' });
    expect((await storage.list('uploads/')).length).toBe(before);
  });

  it('replays documents/process with the same Idempotency-Key: one task, one agent', async () => {
    const a = await upload(owner, 'upload-1')
      .attach('files', Buffer.from(pairs(2)), 'idem.json')
      .expect(200);
    const b = await upload(owner, 'upload-1')
      .attach('files', Buffer.from(pairs(2)), 'idem.json')
      .expect(200);
    expect(b.body).toEqual(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM ingestion_task WHERE agent_id = $1`, [a.body.model_id]);
    expect(n).toBe(1);
    // Same key, different file: 422.
    await upload(owner, 'upload-1')
      .attach('files', Buffer.from(pairs(3)), 'idem.json')
      .expect(422);
  });

  it('update-model edits fields and adds files (parallel_sentences_{n}) as a new task; file_count must match', async () => {
    // An agent with no task in flight (ingestion refuses a second task while one runs: 409).
    const id = (await createAgent(t.app, { ownerId: owner.uid, ownerEmail: owner.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'base' })).id;
    const mismatch = await owner.agent
      .post('/api/update-model/')
      .set('X-CSRF-Token', owner.csrf)
      .field('model_id', id)
      .field('file_count', '2')
      .attach('parallel_sentences_0', Buffer.from(pairs(2)), 'more.json')
      .expect(400);
    expect(mismatch.body).toEqual({ error: 'file_count is 2 but 1 files were sent.' });
    const blank = await owner.agent.post('/api/update-model/').set('X-CSRF-Token', owner.csrf).field('model_id', id).field('custom_prompt', '  ').expect(400);
    expect(blank.body).toEqual({ error: 'Please fill in all required fields' });
    const res = await owner.agent
      .post('/api/update-model/')
      .set('X-CSRF-Token', owner.csrf)
      .field('model_id', id)
      .field('src_lang', 'es')
      .field('tgt_lang', 'qu')
      .field('custom_prompt', 'Descripción nueva')
      .field('core_memory', 'notas')
      .field('file_count', '1')
      .attach('parallel_sentences_0', Buffer.from(pairs(2)), 'more.json')
      .expect(200);
    expect(res.body).toEqual({ success: true, task_id: expect.any(String) });
    const agent = await owner.agent.get(`/api/agents/${id}`).expect(200);
    expect(agent.body).toMatchObject({ custom_prompt: 'Descripción nueva', core_memory: 'notas' });
  });

  it('downloads the dataset as dataset_{id}_files.zip (a zip file)', async () => {
    const created = await upload(owner)
      .attach('files', Buffer.from(pairs(3)), 'zip-me.json')
      .expect(200);
    const id = created.body.model_id;
    await waitFor(
      () => owner.agent.get(`/api/models/download?model_id=${id}`).then((r) => r.status),
      (s) => s === 200,
      { what: 'dataset ready', timeoutMs: 60_000 },
    );
    const res = await owner.agent
      .get(`/api/models/download?model_id=${id}`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="dataset_${id}_files.zip"`);
    const bytes = res.body as Buffer;
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    expect((await request(t.url).get('/api/models/download').expect(400)).body).toEqual({ error: 'Please select an agent first' });
  });
});
