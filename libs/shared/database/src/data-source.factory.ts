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

/** Runs pending migrations; concurrent starters wait on one advisory lock, so each runs once. */
export async function runMigrations(ds: DataSource): Promise<string[]> {
  const qr = ds.createQueryRunner();
  await qr.connect();
  try {
    await qr.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const done = await ds.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await qr.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await qr.release();
  }
}
