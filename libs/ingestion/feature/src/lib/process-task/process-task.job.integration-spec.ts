import { ingestionUploadKey } from '@gaia/contracts';
import { ingestionSchema } from '@gaia/ingestion/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, type TestApp } from '@gaia/testing';
import { IngestionModule } from '../ingestion.module';
import { PROCESS_TASK_JOB } from '../ingestion.tokens';

const CONFIGURED_LEASE_MS = 7000;

describe('the process-task job', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      schemas: [ingestionSchema],
      consumers: ['ingestion'],
      imports: [IngestionModule],
      env: { INGESTION_JOB_LEASE_MS: String(CONFIGURED_LEASE_MS) },
    });
    // Records the lease every claim of a job grants (now() is the claiming statement's time).
    await t.dataSource.query(`
      CREATE TABLE lease_log (kind text, lease_ms int);
      CREATE FUNCTION log_lease() RETURNS trigger AS $$
      BEGIN
        INSERT INTO lease_log VALUES (NEW.kind, round(EXTRACT(EPOCH FROM NEW.locked_until - now()) * 1000));
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER job_claimed AFTER UPDATE ON job FOR EACH ROW WHEN (NEW.status = 'running' AND OLD.status = 'pending') EXECUTE FUNCTION log_lease();`);
  });
  afterAll(() => t?.close());

  it('is leased for the validated INGESTION_JOB_LEASE_MS of the app config', async () => {
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const key = ingestionUploadKey('lease', 0);
    await storage.put(key, new TextEncoder().encode('Hola\tMaitei\n'));
    await t.app.get<RpcClient>(RPC_CLIENT).call('ingestion.start-processing.v1', {
      mode: 'create',
      ownerId: 'user-1',
      srcLang: 'es',
      tgtLang: 'gn',
      files: [{ key, filename: 'pares.txt', size: 12 }],
    });
    await t.drain();
    expect(await t.dataSource.query(`SELECT kind, lease_ms FROM lease_log`)).toEqual([{ kind: PROCESS_TASK_JOB, lease_ms: CONFIGURED_LEASE_MS }]);
  });
});
