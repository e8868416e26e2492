import 'reflect-metadata';
import { Logger, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { ConfigError, loadAppConfig, type AppConfig, type AppName } from '@gaia/shared/config';
import { createRootLogger, PinoNestLogger } from '@gaia/shared/observability';
import { resolveDatabase } from './bootstrap-service';

export interface CommandSpec {
  app: AppName;
  /** Start embedded Postgres under DATA_DIR when DATABASE_URL is unset (as the platform does). */
  allowEmbeddedDatabase?: boolean;
  rootModule: (ctx: { config: AppConfig; databaseUrl: string }) => DynamicModule;
}

/**
 * Runs one command against the same validated config and database as the app's services: builds the
 * root module as an application context (no HTTP), runs `fn`, closes everything, and answers the exit
 * code. Logs go to stderr so stdout carries only the command's output.
 */
export async function runCommand(
  spec: CommandSpec,
  fn: (app: INestApplicationContext, config: AppConfig) => Promise<number>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let config: AppConfig;
  try {
    config = loadAppConfig(spec.app, env);
  } catch (e) {
    console.error(e instanceof ConfigError ? e.message : e);
    return 1;
  }
  const root = createRootLogger({ level: config.LOG_LEVEL, service: `${spec.app}-cli`, destination: pino.destination(2) });
  const nestLogger = new PinoNestLogger(root);
  Logger.overrideLogger(nestLogger);
  const db = await resolveDatabase(spec, config, (m) => root.debug({ context: 'EmbeddedPostgres' }, m));
  let app: INestApplicationContext | undefined;
  try {
    app = await NestFactory.createApplicationContext(spec.rootModule({ config, databaseUrl: db.url }), { logger: nestLogger, abortOnError: false });
    return await fn(app, config);
  } finally {
    await app?.close();
    await db.embedded?.stop();
  }
}
