import { Module, type DynamicModule } from '@nestjs/common';
import { SERVICE_NAMES, type ConsumerName } from '@gaia/contracts';
import { CoreModule } from '@gaia/shared/bootstrap';
import type { AppConfig } from '@gaia/shared/config';
import type { SchemaBundle } from '@gaia/shared/database';
import { DiagnosticsModule, diagnosticsSchema } from '@gaia/shared/messaging';
import { agentsSchema } from '@gaia/agents/data-access';
import { AgentsModule } from '@gaia/agents/feature';
import { billingSchema } from '@gaia/billing/data-access';
import { BillingModule } from '@gaia/billing/feature';
import { identitySchema } from '@gaia/identity/data-access';
import { GatewayModule } from '@gaia/gateway/feature';
import { retrievalSchema } from '@gaia/retrieval/data-access';
import { RetrievalModule } from '@gaia/retrieval/feature';
import { TranslationModule } from '@gaia/translation/feature';
import { ingestionSchema, IngestionModule } from '@gaia/ingestion/feature';

/**
 * Every service in one process on embedded defaults (what `npm start` runs). Each domain adds its
 * schema bundle and feature module here exactly as its own app does.
 */
export const SCHEMAS: SchemaBundle[] = [diagnosticsSchema, agentsSchema, billingSchema, identitySchema, retrievalSchema, ingestionSchema];
export const CONSUMERS: ConsumerName[] = [...SERVICE_NAMES, 'probe'];
export const FEATURES: DynamicModule['imports'] = [
  DiagnosticsModule,
  AgentsModule,
  BillingModule.forRoot(),
  GatewayModule.forRoot(),
  RetrievalModule,
  TranslationModule.forRoot(),
  IngestionModule,
];

@Module({})
export class AppModule {
  /** `extra`: the operator command line adds its module, and hosts no consumers when services run elsewhere (NATS/Kafka). */
  static forRoot(
    config: AppConfig,
    databaseUrl: string,
    extra: { processName?: string; imports?: DynamicModule['imports']; consumers?: readonly ConsumerName[] } = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ processName: extra.processName ?? 'platform', config, databaseUrl, schemas: SCHEMAS, consumers: extra.consumers ?? CONSUMERS }),
        ...(FEATURES ?? []),
        ...(extra.imports ?? []),
      ],
    };
  }
}
