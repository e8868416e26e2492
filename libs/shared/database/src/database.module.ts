import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { createDataSource, DATA_SOURCE, runMigrations } from './data-source.factory';
import type { SchemaBundle } from './schema-bundle';
import { TypeOrmUnitOfWork, UNIT_OF_WORK } from './unit-of-work';

export interface DatabaseModuleOptions {
  /** Resolved connection string (the app starts embedded Postgres first when DATABASE_URL is unset). */
  url: string;
  schemas: readonly SchemaBundle[];
  poolSize?: number;
  ssl?: boolean;
  runMigrations?: boolean;
  applicationName?: string;
}

const OPTIONS = Symbol('DATABASE_OPTIONS');

@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: OPTIONS, useValue: options },
        {
          provide: DATA_SOURCE,
          inject: [OPTIONS],
          useFactory: async (o: DatabaseModuleOptions) => {
            const ds = createDataSource(o);
            await ds.initialize();
            if (o.runMigrations !== false) {
              const ran = await runMigrations(ds);
              if (ran.length) new Logger('Database').log(`applied migrations: ${ran.join(', ')}`);
            }
            return ds;
          },
        },
        { provide: UNIT_OF_WORK, useClass: TypeOrmUnitOfWork },
      ],
      exports: [DATA_SOURCE, UNIT_OF_WORK],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) {
      await this.ds.destroy();
      this.logger.log('connections closed');
    }
  }
}
