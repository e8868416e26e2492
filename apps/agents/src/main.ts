import 'reflect-metadata';
import { runService } from '@gaia/shared/bootstrap';
import { AppModule, SCHEMAS } from './app.module';

void runService({
  app: 'agents',
  schemas: SCHEMAS,
  rootModule: ({ config, databaseUrl }) => AppModule.forRoot(config, databaseUrl),
});
