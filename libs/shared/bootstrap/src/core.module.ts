import { DynamicModule, Global, Module } from '@nestjs/common';
import { join } from 'node:path';
import type { ConsumerName } from '@gaia/contracts';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { DatabaseModule, type SchemaBundle } from '@gaia/shared/database';
import { CLOCK, systemClock } from '@gaia/shared/kernel';
import { MessagingModule, messagingSchema } from '@gaia/shared/messaging';
import { GaiaMetrics, METRICS } from '@gaia/shared/observability';
import { StorageModule } from '@gaia/shared/storage';
import { HealthController } from './health.controller';
import { MessagingGauges } from './messaging-gauges';

export interface CoreModuleOptions {
  processName: string;
  config: AppConfig;
  databaseUrl: string;
  schemas: readonly SchemaBundle[];
  consumers: readonly ConsumerName[];
}

/** What every Gaia process has: config, clock, database + migrations, messaging, file storage, health, Prometheus metrics. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(o: CoreModuleOptions): DynamicModule {
    const c = o.config;
    return {
      module: CoreModule,
      imports: [
        DatabaseModule.forRoot({
          url: o.databaseUrl,
          schemas: [messagingSchema, ...o.schemas],
          poolSize: c.DATABASE_POOL_SIZE,
          ssl: c.DATABASE_SSL,
          runMigrations: c.MIGRATIONS_RUN !== false,
          applicationName: `gaia-${o.processName}`,
        }),
        MessagingModule.forRoot({
          processName: o.processName,
          consumers: o.consumers,
          transport: c.MESSAGING_TRANSPORT ?? 'inprocess',
          natsUrl: c.NATS_URL,
          namespace: c.MESSAGING_NAMESPACE,
          kafka: c.KAFKA_BROKERS
            ? {
                brokers: c.KAFKA_BROKERS.split(',').map((s) => s.trim()),
                clientId: c.KAFKA_CLIENT_ID ?? 'gaia',
                ssl: c.KAFKA_SSL,
                sasl: c.KAFKA_SASL_MECHANISM
                  ? { mechanism: c.KAFKA_SASL_MECHANISM, username: c.KAFKA_SASL_USERNAME ?? '', password: c.KAFKA_SASL_PASSWORD ?? '' }
                  : undefined,
              }
            : undefined,
          outboxPollMs: c.OUTBOX_POLL_MS,
          rpcTimeoutMs: c.RPC_TIMEOUT_MS,
        }),
        StorageModule.forRoot({ dir: c.FILE_STORAGE_DIR ?? join(c.DATA_DIR, 'files') }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: c },
        { provide: CLOCK, useValue: systemClock },
        { provide: METRICS, useValue: new GaiaMetrics(o.processName) },
        MessagingGauges,
      ],
      exports: [APP_CONFIG, CLOCK, METRICS],
    };
  }
}
