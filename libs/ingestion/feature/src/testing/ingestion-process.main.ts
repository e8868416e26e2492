/**
 * A standalone ingestion process for multi-process tests (SIGKILL / resume): the real CoreModule
 * (Postgres, NATS transport, file storage) with IngestionModule only. Configured by environment.
 * Run: node -r @swc-node/register libs/ingestion/feature/src/testing/ingestion-process.main.ts
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { CoreModule } from '@gaia/shared/bootstrap';
import { loadAppConfig } from '@gaia/shared/config';
import { ingestionSchema } from '@gaia/ingestion/data-access';
import { IngestionModule } from '../lib/ingestion.module';

async function main(): Promise<void> {
  const config = loadAppConfig('platform', process.env);
  const root = {
    module: class IngestionProcessModule {},
    imports: [
      CoreModule.forRoot({ processName: 'ingestion', config, databaseUrl: config.DATABASE_URL!, schemas: [ingestionSchema], consumers: ['ingestion'] }),
      IngestionModule,
    ],
  };
  const app = await NestFactory.createApplicationContext(root, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  process.stdout.write('READY\n');
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + '\n');
  process.exit(1);
});
