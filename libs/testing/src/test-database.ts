import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, runMigrations, type SchemaBundle } from '@gaia/shared/database';
import { messagingSchema } from '@gaia/shared/messaging';

/** Admin connection to the machine's Postgres (CI and dev: 127.0.0.1:5432, trust auth). */
export const TEST_ADMIN_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * A fresh database per test suite, so suites run in parallel without seeing each other's rows.
 * With `schemas`, migrations (messaging + the given bundles) are applied from empty.
 */
export async function createTestDatabase(opts: { schemas?: readonly SchemaBundle[]; prefix?: string } = {}): Promise<TestDatabase> {
  const name = `${opts.prefix ?? 'gaia_test'}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(TEST_ADMIN_URL, name);
  if (opts.schemas) {
    const ds = createDataSource({ url, schemas: [messagingSchema, ...opts.schemas] });
    await ds.initialize();
    try {
      await runMigrations(ds);
    } finally {
      await ds.destroy();
    }
  }
  return {
    url,
    name,
    drop: async () => {
      const c = new Client({ connectionString: TEST_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
