import { randomUUID } from 'node:crypto';
import { ingestionUploadKey } from '@gaia/contracts';
import { ingestionSchema } from '@gaia/ingestion/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, type TestApp } from '@gaia/testing';
import { IngestionModule } from '../ingestion.module';
import { SWEEP_EVERY_REGISTRATIONS, SWEEP_UPLOADS_JOB, SweepUploadsUseCase, UNCLAIMED_UPLOAD_GRACE_MS } from './sweep-uploads.use-case';

const enc = (s: string) => new TextEncoder().encode(s);

/**
 * The gateway writes an upload's originals before it registers them; an ingestion outage or a crash between the two
 * leaves a folder no task owns. The sweep deletes such a folder once it has stayed unclaimed for a day, and never a
 * registered one.
 */
describe('sweep of unclaimed uploads (real Postgres, real file storage)', () => {
  let t: TestApp;
  let storage: FileStorage;
  let rpc: RpcClient;

  beforeAll(async () => {
    t = await createTestApp({ schemas: [ingestionSchema], consumers: ['ingestion'], imports: [IngestionModule] });
    storage = t.app.get(FILE_STORAGE);
    rpc = t.app.get(RPC_CLIENT);
  });
  afterAll(() => t?.close());

  /** Registers stored originals with ingestion (a processing task), as the gateway does once it has written them. */
  const register = (key: string, filename: string, size: number) =>
    rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'owner-1', srcLang: 'spanish', tgtLang: 'guarani', files: [{ key, filename, size }] });

  /** Writes one original as the gateway does and, unless `orphan`, registers it. */
  async function upload(opts: { orphan?: boolean } = {}): Promise<string> {
    const uploadId = randomUUID();
    const key = `${ingestionUploadKey(uploadId, 0)}-pairs.tsv`;
    const bytes = enc('Hola\tMaitei\nGracias\tAguyje\n');
    await storage.put(key, bytes);
    if (!opts.orphan) await register(key, 'pairs.tsv', bytes.length);
    return `uploads/${uploadId}/`;
  }
  /** A day and a bit passes for what the sweep remembers (its first sightings are database times). */
  const aDayPasses = () =>
    t.dataSource.query(`UPDATE ingestion_unclaimed_upload SET first_seen = first_seen - make_interval(secs => $1::float8 / 1000)`, [
      UNCLAIMED_UPLOAD_GRACE_MS + 60_000,
    ]);

  it('deletes a folder no task claimed once it has stayed unclaimed for the grace period, and keeps registered ones', async () => {
    const kept = await upload();
    const orphan = await upload({ orphan: true });
    const sweep = t.app.get(SweepUploadsUseCase);

    expect(await sweep.sweep()).toEqual([]); // first seen now
    const remembered: Array<{ prefix: string }> = await t.dataSource.query(`SELECT prefix FROM ingestion_unclaimed_upload`);
    expect(remembered.map((r) => r.prefix)).toEqual([orphan]);

    await aDayPasses();
    expect(await sweep.sweep()).toEqual([orphan]);
    expect(await storage.list(orphan)).toEqual([]);
    expect(await storage.list(kept)).toHaveLength(1);
    expect(await t.dataSource.query(`SELECT prefix FROM ingestion_unclaimed_upload`)).toEqual([]);
  });

  it('keeps a folder registered after the sweep first saw it unclaimed (the gateway was only slow)', async () => {
    const uploadId = randomUUID();
    const key = `${ingestionUploadKey(uploadId, 0)}-late.tsv`;
    await storage.put(key, enc('Agua\tY\n'));
    const sweep = t.app.get(SweepUploadsUseCase);
    await sweep.sweep();
    await aDayPasses();
    await register(key, 'late.tsv', 7);
    expect(await sweep.sweep()).toEqual([]);
    expect(await storage.exists(key)).toBe(true);
  });

  it(`every ${SWEEP_EVERY_REGISTRATIONS}th registration queues the sweep job with it, and the job runs`, async () => {
    const before: Array<{ n: number }> = await t.dataSource.query(`SELECT count(*)::int AS n FROM job WHERE kind = $1`, [SWEEP_UPLOADS_JOB]);
    const orphan = await upload({ orphan: true });
    for (let i = 0; i < SWEEP_EVERY_REGISTRATIONS; i++) await upload();
    const queued: Array<{ n: number }> = await t.dataSource.query(`SELECT count(*)::int AS n FROM job WHERE kind = $1`, [SWEEP_UPLOADS_JOB]);
    expect(queued[0].n).toBe(before[0].n + 1);
    await t.drain();
    const remembered: Array<{ prefix: string }> = await t.dataSource.query(`SELECT prefix FROM ingestion_unclaimed_upload`);
    expect(remembered.map((r) => r.prefix)).toContain(orphan);
  });
});
