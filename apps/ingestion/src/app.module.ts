import { Module, type DynamicModule } from '@nestjs/common';
import type { ConsumerName } from '@gaia/contracts';
import { CoreModule } from '@gaia/shared/bootstrap';
import type { AppConfig } from '@gaia/shared/config';
import type { SchemaBundle } from '@gaia/shared/database';
import { ingestionSchema, IngestionModule } from '@gaia/ingestion/feature';

/** Tables this service owns (its domain's schema bundles). */
export const SCHEMAS: SchemaBundle[] = [ingestionSchema];
/** Consumer groups (events, RPCs, jobs) this service hosts. */
export const CONSUMERS: ConsumerName[] = ['ingestion'];
/** The domain's feature modules. */
const FEATURES: DynamicModule['imports'] = [IngestionModule];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot({ processName: 'ingestion', config, databaseUrl, schemas: SCHEMAS, consumers: CONSUMERS }), ...(FEATURES ?? [])],
    };
  }
}
