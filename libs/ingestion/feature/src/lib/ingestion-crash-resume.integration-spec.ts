import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ingestionUploadKey } from '@gaia/contracts';
import { ingestionSchema } from '@gaia/ingestion/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, createTestDatabase, waitFor, type TestApp, type TestDatabase } from '@gaia/testing';

/**
 * SIGKILL in the middle of a task, on the real Postgres and NATS: a separate ingestion process is
 * killed while it works through the files; a new process resumes the task at once (the dead holder's liveness
 * lock is gone; the 2-minute default lease is not waited for), and the agent ends with exactly the pairs of an
 * uninterrupted run of the same upload.
 */
const ROOT = resolve(__dirname, '../../../../..');
const MAIN = join(ROOT, 'libs/ingestion/feature/src/testing/ingestion-process.main.ts');
const FILES = 12;
const PAIRS_PER_FILE = 6000;

describe('ingestion survives SIGKILL mid-task (real Postgres + NATS, two processes)', () => {
  let db: TestDatabase;
  let gateway: TestApp;
  let storageDir: string;
  let dataDir: string;
  let child: ChildProcess | undefined;
  let env: NodeJS.ProcessEnv;

  function startIngestion(): Promise<ChildProcess> {
    return new Promise((ok, fail) => {
      const p = spawn(process.execPath, ['-r', '@swc-node/register', MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      p.stderr!.on('data', (d) => (err += String(d)));
      p.stdout!.on('data', (d) => {
        if (String(d).includes('READY')) ok(p);
      });
      p.on('exit', (code) => fail(new Error(`ingestion process exited (${code}): ${err}`)));
    });
  }

  beforeAll(async () => {
    db = await createTestDatabase({ schemas: [ingestionSchema] });
    storageDir = mkdtempSync(join(tmpdir(), 'gaia-ingest-files-'));
    dataDir = mkdtempSync(join(tmpdir(), 'gaia-ingest-data-'));
    env = {
      ...process.env,
      SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      MESSAGING_TRANSPORT: 'nats',
      MESSAGING_NAMESPACE: db.name,
      NATS_URL: process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
      DATA_DIR: dataDir,
      FILE_STORAGE_DIR: storageDir,
      OUTBOX_POLL_MS: '200',
    };
    // The "gateway" side: stores originals and calls the ingestion RPC over NATS; hosts no consumer.
    gateway = await createTestApp({
      schemas: [ingestionSchema],
      consumers: [],
      transport: 'nats',
      database: db,
      env: { FILE_STORAGE_DIR: storageDir, NATS_URL: env['NATS_URL']! },
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await gateway?.close({ keepDatabase: true });
    await db?.drop();
    rmSync(storageDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function submit(rpc: RpcClient, storage: FileStorage, uploadId: string) {
    const files = [];
    for (let f = 0; f < FILES; f++) {
      // Overlapping content across files exercises the agent-wide de-duplication on resume.
      const rows = Array.from({ length: PAIRS_PER_FILE }, (_, i) => ({
        source: `frase ${(f * PAIRS_PER_FILE) / 2 + i} en castellano`,
        target: `ñe'ẽ ${(f * PAIRS_PER_FILE) / 2 + i} guaraníme`,
      }));
      const bytes = new TextEncoder().encode(JSON.stringify(rows));
      const key = ingestionUploadKey(uploadId, f);
      await storage.put(key, bytes);
      files.push({ key, filename: `parte-${f}.json`, size: bytes.length });
    }
    return rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'owner', srcLang: 'es', tgtLang: 'gn', files }, { timeoutMs: 30_000 });
  }

  const status = async (taskId: string) => {
    const [t] = await gateway.dataSource.query(`SELECT status, pairs_version FROM ingestion_task WHERE id = $1`, [taskId]);
    const [f] = await gateway.dataSource.query(`SELECT count(*)::int AS done FROM ingestion_file WHERE task_id = $1 AND status <> 'pending'`, [taskId]);
    // Stored = every file read and the pairs handed to retrieval (no retrieval runs here, so the task then waits for learning).
    return { status: t?.status as string, done: f.done as number, stored: t?.pairs_version === taskId };
  };
  const pairsOf = (agentId: string) => gateway.dataSource.query(`SELECT source, target FROM ingestion_pair WHERE agent_id = $1 ORDER BY ord`, [agentId]);

  it('resumes the task after SIGKILL and ends with exactly the pairs of an uninterrupted run', async () => {
    const rpc = gateway.app.get<RpcClient>(RPC_CLIENT);
    const storage = gateway.app.get<FileStorage>(FILE_STORAGE);
    child = await startIngestion();
    const killed = await submit(rpc, storage, 'crash');
    await waitFor(
      () => status(killed.task_id),
      (s) => s.done >= 2,
      { timeoutMs: 60_000, intervalMs: 10, what: 'two files processed' },
    );
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const atKill = await status(killed.task_id);
    expect(atKill).toMatchObject({ status: 'PROCESSING', stored: false });
    expect(atKill.done).toBeLessThan(FILES);

    child = await startIngestion();
    const done = await waitFor(
      () => status(killed.task_id),
      (s) => s.stored || s.status !== 'PROCESSING',
      { timeoutMs: 90_000, what: 'resumed task to store its pairs' },
    );
    expect(done).toEqual({ status: 'PROCESSING', done: FILES, stored: true });

    const clean = await submit(rpc, storage, 'clean');
    await waitFor(
      () => status(clean.task_id),
      (s) => s.stored || s.status !== 'PROCESSING',
      { timeoutMs: 90_000, what: 'uninterrupted task to store its pairs' },
    );

    const a = await pairsOf(killed.model_id);
    const b = await pairsOf(clean.model_id);
    expect(a.length).toBe(((FILES + 1) * PAIRS_PER_FILE) / 2);
    expect(a).toEqual(b);
    const [task] = await gateway.dataSource.query(`SELECT successful_files, text_blocks_extracted, pair_count, progress FROM ingestion_task WHERE id = $1`, [
      killed.task_id,
    ]);
    expect(task).toEqual({ successful_files: FILES, text_blocks_extracted: FILES * PAIRS_PER_FILE, pair_count: a.length, progress: 70 });
    // The snapshot handed to retrieval is the same for both runs.
    const snap = async (id: string) => {
      const [e] = await gateway.dataSource.query(
        `SELECT payload->>'pairsKey' AS key FROM outbox_event WHERE topic = 'ingestion.pairs-stored.v1' AND payload->>'taskId' = $1`,
        [id],
      );
      return new TextDecoder().decode(await storage.get(e.key));
    };
    expect(await snap(killed.task_id)).toBe(await snap(clean.task_id));
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
  });
});
