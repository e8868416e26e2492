import { unzipSync } from 'fflate';
import { FILE_REPOSITORY, PAIR_REPOSITORY, TASK_REPOSITORY } from '@gaia/ingestion/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import { OUTBOX, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import type { FileStorage } from '@gaia/shared/storage';
import type { TestApp } from '@gaia/testing';
import type { IngestionEventRecorder } from '../../testing/event-recorder';
import { createIngestionTestApp, type IngestionTestApp } from '../../testing/ingestion-test-app';
import { storageKeys } from '../ingestion.tokens';
import { AgentDataUseCase } from './task-queries.use-case';

const enc = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

/**
 * The dataset zip (every original, all pairs, all corrections) is anyone's download for a public
 * agent: it is built once per version of the dataset and reused until the dataset changes, and concurrent requests for
 * the same agent share one build.
 */
describe('dataset download of an agent: built once per dataset version (real Postgres, storage)', () => {
  let t: TestApp;
  let rpc: RpcClient;
  let storage: FileStorage;
  let rec: IngestionEventRecorder;
  let upload: IngestionTestApp['upload'];
  let update: IngestionTestApp['update'];
  /** Keys of the zips written to storage since the spy started (putStream is the real storage's, observed). */
  let zipPuts: string[];
  /** Keys read whole (get) since the spy started: a zip is built from its originals streamed, never read whole. */
  let gets: string[];

  beforeAll(async () => {
    ({ t, rpc, storage, rec, upload, update } = await createIngestionTestApp());
    const putStream = storage.putStream.bind(storage);
    jest.spyOn(storage, 'putStream').mockImplementation(async (key, chunks) => {
      if (key.endsWith('.zip')) zipPuts.push(key);
      return putStream(key, chunks);
    });
    const get = storage.get.bind(storage);
    jest.spyOn(storage, 'get').mockImplementation(async (key) => {
      gets.push(key);
      return get(key);
    });
  });
  beforeEach(() => {
    zipPuts = [];
    gets = [];
  });
  afterAll(() => t?.close());

  async function createAgent(ownerId: string, uploadId: string, content: string): Promise<string> {
    const files = await upload(uploadId, [['pares.tsv', enc(content)]]);
    const res = await rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId, srcLang: 'es', tgtLang: 'gn', files });
    await t.drain();
    return res.model_id;
  }

  it('answers the same zip without rebuilding while the dataset is unchanged; rebuilds after a new upload or correction and drops the old zip', async () => {
    const agentId = await createAgent('user-reuse', 'reuse-1', 'Hola\tMaitei\n');
    gets = [];
    const first = await rpc.call('ingestion.prepare-download.v1', { agentId });
    expect(zipPuts).toEqual([first.key]);
    expect(gets.filter((k) => !k.endsWith('.json'))).toEqual([]);
    const bytes = await storage.get(first.key);

    const second = await rpc.call('ingestion.prepare-download.v1', { agentId });
    expect(second).toEqual(first);
    expect(zipPuts).toEqual([first.key]);
    expect(await storage.get(second.key)).toEqual(bytes);

    // a new upload (update-model) changes the dataset: rebuilt, with the new pair and original
    const more = await upload('reuse-2', [['mas.tsv', enc('Agua\tY\n')]]);
    await update(agentId, 'user-reuse', more);
    await t.drain();
    const third = await rpc.call('ingestion.prepare-download.v1', { agentId });
    expect(third.key).not.toBe(first.key);
    expect(zipPuts).toEqual([first.key, third.key]);
    const zip3 = unzipSync(await storage.get(third.key));
    expect(Object.keys(zip3).sort()).toEqual(['originals/mas.tsv', 'originals/pares.tsv', 'pairs.jsonl', 'pairs.tmx']);
    expect(text(zip3['pairs.jsonl'])).toContain('"source":"Agua"');
    expect(await storage.exists(first.key)).toBe(false);

    // a new correction (the agents service bumps the feedback version): rebuilt, with the correction
    rec.corrections = [
      { id: 'c1', source: 'Agua', translation: 'Y', corrected: 'Y porã', author_uid: 'u', author_email: 'a@gaia.test', created_at: new Date(0).toISOString() },
    ];
    rec.feedbackVersion += 1;
    try {
      const fourth = await rpc.call('ingestion.prepare-download.v1', { agentId });
      expect(fourth.key).not.toBe(third.key);
      expect(zipPuts).toEqual([first.key, third.key, fourth.key]);
      expect(text(unzipSync(await storage.get(fourth.key))['corrections.jsonl'])).toContain('Y porã');
      expect(await storage.exists(third.key)).toBe(false);
      expect((await storage.list(`ingestion/${agentId}/downloads/`)).filter((k) => k.endsWith('.zip'))).toEqual([fourth.key]);

      expect(await rpc.call('ingestion.prepare-download.v1', { agentId })).toEqual(fourth);
      expect(zipPuts).toHaveLength(3);
    } finally {
      rec.corrections = [];
    }

    // agent deletion removes every prepared download with the agent's files
    await t.dataSource.transaction((em) =>
      t.app
        .get<Outbox>(OUTBOX)
        .add(em, 'agents.agent-deleted.v1', { agentId, ownerId: 'user-reuse', sharedWithEmails: [], deletedAt: new Date().toISOString() }),
    );
    await t.drain();
    expect(await storage.list(storageKeys.agentPrefix(agentId))).toEqual([]);
  });

  it('a replica that finishes building an older version of the dataset leaves the newer zip another replica wrote', async () => {
    const agentId = await createAgent('user-replicas', 'replicas-1', 'Hola\tMaitei\n');
    // a second ingestion replica: the same database and storage, its own use case (its own single flight)
    const one = t.app.get(AgentDataUseCase);
    const other = new AgentDataUseCase(
      t.app.get(DATA_SOURCE),
      storage,
      t.app.get(TASK_REPOSITORY),
      t.app.get(FILE_REPOSITORY),
      t.app.get(PAIR_REPOSITORY),
      rpc,
    );
    // replica one's build is held while it writes its zip
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let writing!: () => void;
    const started = new Promise<void>((r) => (writing = r));
    const putStream = (storage.putStream as jest.Mock).getMockImplementation()!;
    (storage.putStream as jest.Mock).mockImplementationOnce(async (key: string, chunks: AsyncIterable<Uint8Array>) => {
      writing();
      await held;
      return putStream(key, chunks);
    });
    const older = one.prepareDownload(agentId);
    await started;
    // the dataset changes (a correction) and replica two builds the newer zip to the end
    rec.feedbackVersion += 1;
    const newer = await other.prepareDownload(agentId);
    release();
    const stale = await older;
    expect(stale.key).not.toBe(newer.key);
    // both answers can be downloaded: the stale build did not clean up the newer zip
    expect(await storage.exists(newer.key)).toBe(true);
    expect(await storage.exists(stale.key)).toBe(true);
    expect(await one.prepareDownload(agentId)).toEqual(newer);
    // the next version's build leaves only itself
    rec.feedbackVersion += 1;
    const next = await other.prepareDownload(agentId);
    expect((await storage.list(storageKeys.downloadsPrefix(agentId))).filter((k) => k.endsWith('.zip'))).toEqual([next.key]);
  });

  it('concurrent prepares of one agent share one build, and a failure reaches every caller', async () => {
    const agentId = await createAgent('user-flight', 'flight-1', 'Hola\tMaitei\nGracias\tAguyje\n');
    const useCase = t.app.get(AgentDataUseCase);
    const answers = await Promise.all(Array.from({ length: 5 }, () => useCase.prepareDownload(agentId)));
    expect(zipPuts).toHaveLength(1);
    for (const a of answers) expect(a).toEqual(answers[0]);

    const failing = await createAgent('user-flight', 'flight-2', 'Buenas\tPyhare\n');
    rec.failCorrections = true;
    try {
      const results = await Promise.allSettled(Array.from({ length: 3 }, () => useCase.prepareDownload(failing)));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(zipPuts).toHaveLength(1);
    } finally {
      rec.failCorrections = false;
    }
    // the failed build is not remembered: the next call builds
    await rpc.call('ingestion.prepare-download.v1', { agentId: failing });
    expect(zipPuts).toHaveLength(2);
  });
});
