import { Module, type DynamicModule } from '@nestjs/common';
import type { ConsumerName } from '@gaia/contracts';
import { CoreModule } from '@gaia/shared/bootstrap';
import type { AppConfig } from '@gaia/shared/config';
import type { SchemaBundle } from '@gaia/shared/database';
import { identitySchema } from '@gaia/identity/data-access';
import { GatewayModule } from '@gaia/gateway/feature';

/** Tables this service owns (its domain's schema bundles). */
export const SCHEMAS: SchemaBundle[] = [identitySchema];
/** Consumer groups (events, RPCs, jobs) this service hosts. */
export const CONSUMERS: ConsumerName[] = ['gateway'];
/** The domain's feature modules. */
export const FEATURES: DynamicModule['imports'] = [GatewayModule.forRoot()];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot({ processName: 'gateway', config, databaseUrl, schemas: SCHEMAS, consumers: CONSUMERS }), ...(FEATURES ?? [])],
    };
  }
}
