import { Module, type DynamicModule } from '@nestjs/common';
import type { ConsumerName } from '@gaia/contracts';
import { CoreModule } from '@gaia/shared/bootstrap';
import type { AppConfig } from '@gaia/shared/config';
import type { SchemaBundle } from '@gaia/shared/database';
import { retrievalSchema } from '@gaia/retrieval/data-access';
import { RetrievalModule } from '@gaia/retrieval/feature';

/** Tables this service owns (its domain's schema bundles). */
export const SCHEMAS: SchemaBundle[] = [retrievalSchema];
/** Consumer groups (events, RPCs, jobs) this service hosts. */
export const CONSUMERS: ConsumerName[] = ['retrieval'];
/** The domain's feature modules. */
const FEATURES: DynamicModule['imports'] = [RetrievalModule];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot({ processName: 'retrieval', config, databaseUrl, schemas: SCHEMAS, consumers: CONSUMERS }), ...(FEATURES ?? [])],
    };
  }
}
