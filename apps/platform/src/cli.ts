import 'reflect-metadata';
import { OperatorModule, runOperatorCli } from '@gaia/operator';
import { AppModule, CONSUMERS } from './app.module';

/**
 * `npx gaia <command>` (bin `tools/gaia.mjs`): the operator's command line, on the platform's config and
 * database (DATABASE_URL or the embedded default under DATA_DIR). With in-process messaging it hosts every
 * service like `npm start` does; with NATS/Kafka it is a client of the running services.
 */
void runOperatorCli(process.argv.slice(2), {
  app: 'platform',
  allowEmbeddedDatabase: true,
  rootModule: ({ config, databaseUrl }) =>
    AppModule.forRoot(config, databaseUrl, {
      processName: 'cli',
      imports: [OperatorModule],
      consumers: (config.MESSAGING_TRANSPORT ?? 'inprocess') === 'inprocess' ? CONSUMERS : [],
    }),
}).then((code) => process.exit(code));
