import { DataSource } from 'typeorm';
import { mergeBundles, type SchemaBundle } from './schema-bundle';

export const DATA_SOURCE = Symbol('DATA_SOURCE');
export const MIGRATION_LOCK_ID = 727_073_690; // "gaia" migrations advisory lock

export interface DatabaseOptions {
  url: string;
  schemas: readonly SchemaBundle[];
  poolSize?: number;
  ssl?: boolean;
  applicationName?: string;
}

export function createDataSource(opts: DatabaseOptions): DataSource {
  const { entities, migrations } = mergeBundles(opts.schemas);
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    entities: entities as never,
    migrations: migrations as never,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error'],
    ssl: opts.ssl ? { rejectUnauthorized: false } : undefined,
    extra: { max: opts.poolSize ?? 10, application_name: opts.applicationName ?? 'gaia' },
  });
}

/** How often a starter that did not get the migration lock asks again. */
const MIGRATION_LOCK_RETRY_MS = 100;

/**
 * Runs pending migrations; concurrent starters take turns on one advisory lock, so each migration runs once. A starter
 * asks for the lock with pg_try_advisory_lock between pauses rather than waiting inside pg_advisory_lock: a statement
 * blocked there holds a snapshot, and a migration's CREATE INDEX CONCURRENTLY waits for every older snapshot of the
 * database, the waiting starter's included, which waits for the lock the migrating one holds (a deadlock Postgres
 * cannot see, as the lock holder is an idle session).
 */
export async function runMigrations(ds: DataSource): Promise<string[]> {
  const qr = ds.createQueryRunner();
  await qr.connect();
  try {
    for (;;) {
      const [{ locked }]: Array<{ locked: boolean }> = await qr.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_ID]);
      if (locked) break;
      await new Promise((r) => setTimeout(r, MIGRATION_LOCK_RETRY_MS));
    }
    const done = await ds.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await qr.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await qr.release();
  }
}
