import type { DynamicModule, INestApplication, ModuleMetadata } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { DataSource } from 'typeorm';
import type { ConsumerName } from '@gaia/contracts';
import { CoreModule, installJsonBodyParsers } from '@gaia/shared/bootstrap';
import { loadAppConfig, type AppConfig } from '@gaia/shared/config';
import { DATA_SOURCE, type SchemaBundle } from '@gaia/shared/database';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import { MessagingDrain, type BacklogCounts, type TransportKind } from '@gaia/shared/messaging';
import { createTestDatabase, type TestDatabase } from './test-database';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestAppOptions {
  schemas: readonly SchemaBundle[];
  consumers: readonly ConsumerName[];
  imports?: ModuleMetadata['imports'];
  providers?: ModuleMetadata['providers'];
  controllers?: ModuleMetadata['controllers'];
  transport?: TransportKind;
  env?: Record<string, string>;
  /** Start an HTTP server on port 0 (for supertest / sockets). */
  http?: boolean;
  /** Reuse a database (e.g. to restart an app on the same data). */
  database?: TestDatabase;
  /** The CLOCK of the app (e.g. a ManualClock); the system clock when absent. */
  clock?: Clock;
}

export interface TestApp {
  app: INestApplication;
  db: TestDatabase;
  dataSource: DataSource;
  config: AppConfig;
  dataDir: string;
  url?: string;
  /** Delivers every pending event and runs every job, until the system is idle. */
  drain(timeoutMs?: number): Promise<BacklogCounts>;
  close(opts?: { keepDatabase?: boolean }): Promise<void>;
}

/** A real Nest app on a fresh Postgres database with the real messaging stack (in-process by default). */
export async function createTestApp(o: TestAppOptions): Promise<TestApp> {
  const db = o.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(join(tmpdir(), 'gaia-test-data-'));
  const config = loadAppConfig('platform', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    MESSAGING_TRANSPORT: o.transport ?? 'inprocess',
    // Apps of one test (same database) share a NATS namespace; other test files never see their subjects.
    MESSAGING_NAMESPACE: db.name,
    OUTBOX_POLL_MS: '200',
    DATABASE_POOL_SIZE: '5',
    ...o.env,
  });
  @Module({ imports: o.imports ?? [], providers: o.providers ?? [], controllers: o.controllers ?? [] })
  class FeaturesModule {}
  const root: DynamicModule = {
    module: class TestRootModule {},
    imports: [CoreModule.forRoot({ processName: 'test', config, databaseUrl: db.url, schemas: o.schemas, consumers: o.consumers }), FeaturesModule],
  };
  const builder = Test.createTestingModule({ imports: [root] });
  if (o.clock) builder.overrideProvider(CLOCK).useValue(o.clock);
  const moduleRef = await builder.compile();
  moduleRef.useLogger(false);
  const app = moduleRef.createNestApplication({ logger: false });
  installJsonBodyParsers(app);
  let url: string | undefined;
  if (o.http) {
    await app.listen(0, '127.0.0.1');
    const addr = app.getHttpServer().address();
    url = `http://127.0.0.1:${addr.port}`;
  } else {
    await app.init();
  }
  const drain = app.get(MessagingDrain);
  return {
    app,
    db,
    dataSource: app.get<DataSource>(DATA_SOURCE),
    config,
    dataDir,
    url,
    drain: (ms) => drain.drain(ms),
    close: async (opts = {}) => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (!opts.keepDatabase) await db.drop();
    },
  };
}
