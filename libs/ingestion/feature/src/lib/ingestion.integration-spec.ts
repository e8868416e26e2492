import { unzipSync } from 'fflate';
import { FILE_REPOSITORY, PAIR_REPOSITORY, type FileRepositoryPort, type PairRepositoryPort } from '@gaia/ingestion/data-access';
import { OUTBOX, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import type { FileStorage } from '@gaia/shared/storage';
import type { TestApp } from '@gaia/testing';
import type { IngestionEventRecorder } from '../testing/event-recorder';
import { createIngestionTestApp, type IngestionTestApp } from '../testing/ingestion-test-app';
import PDFDocument from 'pdfkit';

/** A two-column bilingual PDF (source left, target right), built with pdfkit. */
function twoColumnPdf(rows: Array<[string, string]>): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    rows.forEach(([a, b], i) => {
      doc.text(a, 72, 72 + i * 30, { width: 220 });
      doc.text(b, 320, 72 + i * 30, { width: 220 });
    });
    doc.end();
  });
}

const enc = (s: string) => new TextEncoder().encode(s);

describe('ingestion service (real Postgres, outbox/inbox, jobs)', () => {
  let t: TestApp;
  let rpc: RpcClient;
  let storage: FileStorage;
  let rec: IngestionEventRecorder;
  let upload: IngestionTestApp['upload'];
  let update: IngestionTestApp['update'];

  beforeAll(async () => {
    ({ t, rpc, storage, rec, upload, update } = await createIngestionTestApp());
  });
  afterAll(() => t?.close());

  /** Stored pairs and documents of an agent, read through the ingestion repositories. */
  async function stats(agentId: string): Promise<{ pairCount: number; documentCount: number; textBlocksExtracted: number }> {
    const em = t.dataSource.manager;
    const docs = await t.app.get<FileRepositoryPort>(FILE_REPOSITORY).countDocuments(em, agentId);
    return {
      pairCount: await t.app.get<PairRepositoryPort>(PAIR_REPOSITORY).count(em, agentId),
      documentCount: docs.documents,
      textBlocksExtracted: docs.textBlocks,
    };
  }

  it('turns an upload into an agent: partial success, de-duplication, events, status, download', async () => {
    const pdf = await twoColumnPdf([
      ['El perro come.', 'Jagua okaru.'],
      ['La casa es grande.', 'Óga tuicha.'],
    ]);
    const files = await upload('u1', [
      [
        'pares.json',
        enc(
          JSON.stringify([
            { source: 'Hola', target: 'Maitei' },
            { source: 'Hola', target: 'Maitei' },
            { source: 'Gracias', target: '' },
          ]),
        ),
      ],
      ['corpus.es', enc('Buenas noches\nEl perro come.\n')],
      ['corpus.gn', enc('Pyhare porã\nJagua okaru.\n')],
      ['dos.pdf', pdf],
      ['roto.json', enc('[{"source": ')],
      ['foto.bmp', new Uint8Array([0x42, 0x4d, 0, 0, 0, 0])],
    ]);
    const res = await rpc.call('ingestion.start-processing.v1', {
      mode: 'create',
      ownerId: 'user-1',
      srcLang: 'ES',
      tgtLang: 'Gn',
      customPrompt: 'Guaraní agent',
      coreMemory: '',
      files,
      idempotencyKey: 'k1',
    });
    expect(res.total_files).toBe(6);
    const again = await rpc.call('ingestion.start-processing.v1', {
      mode: 'create',
      ownerId: 'user-1',
      srcLang: 'es',
      tgtLang: 'gn',
      files,
      idempotencyKey: 'k1',
    });
    expect(again).toEqual(res);

    await t.drain();
    const { task } = await rpc.call('ingestion.get-task.v1', { taskId: res.task_id });
    expect(task).toMatchObject({
      status: 'COMPLETED',
      progress: 100,
      message: 'Processed 4 of 6 files successfully!',
      total_files: 6,
      successful_files: 4,
      model_id: res.model_id,
      total_pages: 1,
    });
    expect(task.errors.map((e) => e.message)).toEqual(['roto.json: invalid JSON at end of file', 'foto.bmp: Unsupported file type']);

    const pairs = await t.dataSource.query(`SELECT source, target FROM ingestion_pair WHERE agent_id = $1 ORDER BY ord`, [res.model_id]);
    expect(pairs).toEqual([
      { source: 'Hola', target: 'Maitei' },
      { source: 'Buenas noches', target: 'Pyhare porã' },
      { source: 'El perro come.', target: 'Jagua okaru.' },
      { source: 'La casa es grande.', target: 'Óga tuicha.' },
    ]);
    const [tr] = await t.dataSource.query(`SELECT src_lang, tgt_lang FROM ingestion_task WHERE id = $1`, [res.task_id]);
    expect(tr).toEqual({ src_lang: 'es', tgt_lang: 'gn' });

    expect(rec.started).toHaveLength(1);
    expect(rec.started[0]).toMatchObject({ agentId: res.model_id, ownerId: 'user-1', srcLang: 'es', tgtLang: 'gn', totalFiles: 6 });
    expect(rec.finished).toHaveLength(1);
    expect(rec.finished[0]).toMatchObject({ status: 'COMPLETED', documentCount: 4, pairCount: 4, processingError: null });
    expect(rec.stored).toHaveLength(1);
    const snapshot = new TextDecoder()
      .decode(await storage.get(rec.stored[0].pairsKey))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(snapshot.map((p: { source: string }) => p.source)).toEqual(['Hola', 'Buenas noches', 'El perro come.', 'La casa es grande.']);
    const percents = rec.progress.filter((p) => p.task.id === res.task_id).map((p) => p.task.progress);
    expect(percents[percents.length - 1]).toBe(100);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);

    const dl = await rpc.call('ingestion.prepare-download.v1', { agentId: res.model_id });
    expect(dl.filename).toBe(`dataset_${res.model_id}_files.zip`);
    const zip = unzipSync(await storage.get(dl.key));
    expect(Object.keys(zip).sort()).toEqual(
      [
        'originals/corpus.es',
        'originals/corpus.gn',
        'originals/dos.pdf',
        'originals/foto.bmp',
        'originals/pares.json',
        'originals/roto.json',
        'pairs.jsonl',
        'pairs.tmx',
      ].sort(),
    );
    expect(new TextDecoder().decode(zip['pairs.tmx'])).toContain('<tuv xml:lang="gn"><seg>Óga tuicha.</seg></tuv>');

    // update-model: adds files, keeps agent-wide de-duplication
    const more = await upload('u2', [['mas.txt', enc('Hola\tMaitei\nAgua\tY\n')]]);
    const upd = await update(res.model_id, 'user-1', more);
    expect(upd.model_id).toBe(res.model_id);
    await t.drain();
    expect(await stats(res.model_id)).toEqual({ pairCount: 5, documentCount: 5, textBlocksExtracted: 7 });
    expect(rec.stored[1]).toMatchObject({ addedCount: 1, pairCount: 5 });

    // agents.agent-deleted.v1 cascades: rows and stored files are gone
    await t.dataSource.transaction((em) =>
      t.app
        .get<Outbox>(OUTBOX)
        .add(em, 'agents.agent-deleted.v1', { agentId: res.model_id, ownerId: 'user-1', sharedWithEmails: [], deletedAt: new Date().toISOString() }),
    );
    await t.drain();
    expect(await stats(res.model_id)).toEqual({ pairCount: 0, documentCount: 0, textBlocksExtracted: 0 });
    expect(await storage.exists(files[0].key)).toBe(false);
    expect(await storage.list(`ingestion/${res.model_id}/`)).toEqual([]);
  });

  it('stays PROCESSING until retrieval has learned the stored version, and fails when learning fails', async () => {
    rec.failLearning = true;
    try {
      const files = await upload('u5', [['a.tsv', enc('es\tgn\nHola\tMaitei\n')]]);
      const res = await rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'user-3', srcLang: 'es', tgtLang: 'gn', files });
      await t.drain();
      const { task } = await rpc.call('ingestion.get-task.v1', { taskId: res.task_id });
      expect(task).toMatchObject({ status: 'FAILED', message: 'Learning failed: not enough data', progress: 100 });
      const mine = rec.progress.filter((p) => p.task.id === res.task_id).map((p) => [p.task.status, p.task.progress]);
      expect(mine).toEqual([
        ['PROCESSING', 0],
        ['PROCESSING', 70],
        ['PROCESSING', 70],
        ['PROCESSING', 84],
        ['FAILED', 100],
      ]);
      expect(rec.finished.find((f) => f.taskId === res.task_id)).toMatchObject({ status: 'FAILED', processingError: 'Learning failed: not enough data' });
    } finally {
      rec.failLearning = false;
    }
  });

  it('refuses an operator rebuild while a task of the agent is processing (the rebuild would supersede its version and leave it PROCESSING)', async () => {
    const first = await upload('u6', [['a.tsv', enc('es\tgn\nHola\tMaitei\n')]]);
    const res = await rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'user-4', srcLang: 'es', tgtLang: 'gn', files: first });
    await t.drain();
    rec.holdLearning = true;
    try {
      const more = await upload('u7', [['b.tsv', enc('es\tgn\nAgua\tY\n')]]);
      const upd = await update(res.model_id, 'user-4', more);
      await t.drain();
      expect((await rpc.call('ingestion.get-task.v1', { taskId: upd.task_id })).task.status).toBe('PROCESSING');
      await expect(rpc.call('ingestion.rebuild-agent.v1', { agentId: res.model_id })).rejects.toMatchObject({ status: 409, code: 'task_in_progress' });

      await t.dataSource.transaction((em) => rec.releaseLearning(em));
      await t.drain();
      expect((await rpc.call('ingestion.get-task.v1', { taskId: upd.task_id })).task.status).toBe('COMPLETED');
    } finally {
      rec.holdLearning = false;
    }
    const rebuilt = await rpc.call('ingestion.rebuild-agent.v1', { agentId: res.model_id });
    expect(rebuilt.pairCount).toBe(2);
  });

  it('starts one of several concurrent updates of an agent; the others get task_in_progress', async () => {
    const first = await upload('u8', [['a.tsv', enc('es\tgn\nHola\tMaitei\n')]]);
    const res = await rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'user-5', srcLang: 'es', tgtLang: 'gn', files: first });
    await t.drain();
    const files = await upload('u9', [['b.tsv', enc('es\tgn\nAgua\tY\n')]]);
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => update(res.model_id, 'user-5', files)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(o.reason).toMatchObject({ status: 409, code: 'task_in_progress' });
    }
    await t.drain();
  });

  it('fails a task whose files are all bad, with the reasons; rejects limits and unsupported-only uploads at once', async () => {
    const files = await upload('u3', [
      ['roto.json', enc('{')],
      ['vacio.txt', enc('solo una línea sin par')],
    ]);
    const res = await rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'user-2', srcLang: 'es', tgtLang: 'gn', files });
    await t.drain();
    const { task } = await rpc.call('ingestion.get-task.v1', { taskId: res.task_id });
    expect(task.status).toBe('FAILED');
    expect(task.message).toMatch(/^No file could be processed: roto\.json: invalid JSON/);
    expect(rec.finished.find((f) => f.taskId === res.task_id)).toMatchObject({ status: 'FAILED', processingError: task.message });

    const bmp = await upload('u4', [['x.bmp', new Uint8Array([0x42, 0x4d, 0, 0])]]);
    await expect(rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'u', srcLang: 'es', tgtLang: 'gn', files: bmp })).rejects.toMatchObject({
      message: 'x.bmp: Unsupported file type',
      status: 415,
    });
    await expect(rpc.call('ingestion.get-task.v1', { taskId: '00000000-0000-0000-0000-000000000000' })).rejects.toMatchObject({ status: 404 });
  });
});
