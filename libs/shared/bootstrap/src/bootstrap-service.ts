import 'reflect-metadata';
import { Logger, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { ConfigError, loadAppConfig, type AppConfig, type AppName } from '@gaia/shared/config';
import { createDataSource, runMigrations, startEmbeddedPostgres, type EmbeddedPostgresHandle, type SchemaBundle } from '@gaia/shared/database';
import { messagingSchema } from '@gaia/shared/messaging';
import { createRootLogger, httpLogging, METRICS, PinoNestLogger, type GaiaMetrics } from '@gaia/shared/observability';
import { serveWebApp } from './web-static';
import { installJsonBodyParsers } from './json-body';
import { METRICS_PATH, serveMetrics } from './metrics-server';

export interface ServiceSpec {
  app: AppName;
  /** Builds the root module once config and the database URL are known. */
  rootModule: (ctx: { config: AppConfig; databaseUrl: string }) => DynamicModule;
  /** Schemas for the `migrate` command (the same the root module registers). */
  schemas: readonly SchemaBundle[];
  /** Serve the web build at `/` (gateway, platform). */
  serveWeb?: boolean;
  /** Start embedded Postgres when DATABASE_URL is unset (platform only). */
  allowEmbeddedDatabase?: boolean;
  /** Called after the app is created, before listening (e.g. cookie parser, Socket.IO adapter). */
  configure?: (app: INestApplication, config: AppConfig) => void | Promise<void>;
  /** Called once the process serves (e.g. a test fixture announcing its URL, or producing a burst). */
  onReady?: (service: RunningService) => void | Promise<void>;
}

export interface RunningService {
  app: INestApplication;
  config: AppConfig;
  url: string;
  /** The Prometheus endpoint (its own port, METRICS_PORT), when one is configured. */
  metricsUrl?: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/** DATABASE_URL, or embedded Postgres under DATA_DIR where the spec allows it (the platform and its command line). */
export async function resolveDatabase(
  spec: Pick<ServiceSpec, 'app' | 'allowEmbeddedDatabase'>,
  config: AppConfig,
  log: (m: string) => void,
): Promise<{ url: string; embedded?: EmbeddedPostgresHandle }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  if (!spec.allowEmbeddedDatabase) throw new ConfigError(spec.app, ['DATABASE_URL: required for this service (only the platform starts embedded Postgres)']);
  const embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_POSTGRES_PORT, log: (m) => log(m) });
  return { url: embedded.url, embedded };
}

/** Starts one Gaia process: config (fail fast) → database → Nest app → HTTP; stops cleanly on SIGTERM/SIGINT. */
export async function startService(spec: ServiceSpec, env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const config = loadAppConfig(spec.app, env);
  const root = createRootLogger({ level: config.LOG_LEVEL, service: spec.app });
  const nestLogger = new PinoNestLogger(root);
  Logger.overrideLogger(nestLogger);
  const pgLog = root.child({ context: 'EmbeddedPostgres' });
  const db = await resolveDatabase(spec, config, (m) => pgLog.debug(m));
  let app: INestApplication;
  let metricsServer: Server | undefined;
  try {
    app = await NestFactory.create(spec.rootModule({ config, databaseUrl: db.url }), { logger: nestLogger, abortOnError: false });
  } catch (e) {
    await db.embedded?.stop();
    throw e;
  }
  try {
    installJsonBodyParsers(app);
    app.use(httpLogging(root));
    app.use(app.get<GaiaMetrics>(METRICS).httpMiddleware());
    if (spec.configure) await spec.configure(app, config);
    if (spec.serveWeb) {
      const dir = config.WEB_DIST_DIR ?? join(process.cwd(), 'dist/apps/web');
      if (!serveWebApp(app, dir)) root.warn({ dir }, 'web build not found; the API runs without the web app');
    }
    await app.listen(config.PORT, config.HOST);
    if (config.METRICS_PORT !== undefined) metricsServer = await serveMetrics(app.get<GaiaMetrics>(METRICS), config.METRICS_PORT, config.HOST);
  } catch (e) {
    await app.close().catch(() => undefined);
    await db.embedded?.stop();
    throw e;
  }
  const baseUrl = (server: { address(): ReturnType<Server['address']> }, fallback: number) => {
    const addr = server.address();
    return `http://${config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST}:${typeof addr === 'object' && addr ? addr.port : fallback}`;
  };
  const url = baseUrl(app.getHttpServer(), config.PORT);
  const metricsUrl = metricsServer ? `${baseUrl(metricsServer, config.METRICS_PORT ?? 0)}${METRICS_PATH}` : undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
      await app.close();
      await db.embedded?.stop();
    })());
  return { app, config, url, metricsUrl, databaseUrl: db.url, stop };
}

/** `main.ts` of every app: `node main.js` serves; `node main.js migrate` applies migrations and exits. */
export async function runService(spec: ServiceSpec): Promise<void> {
  const cmd = process.argv[2];
  try {
    if (cmd === 'migrate') {
      const config = loadAppConfig(spec.app);
      const db = await resolveDatabase(spec, config, () => undefined);
      const ds = createDataSource({ url: db.url, schemas: [messagingSchema, ...spec.schemas] });
      await ds.initialize();
      const ran = await runMigrations(ds);
      console.log(JSON.stringify({ level: 'info', msg: 'migrations applied', ran }));
      await ds.destroy();
      await db.embedded?.stop();
      return;
    }
    const s = await startService(spec);
    const log = new Logger('Bootstrap');
    log.log(`Gaia ${spec.app} ready at ${s.url}${s.metricsUrl ? ` (metrics at ${s.metricsUrl})` : ''}`);
    if (spec.serveWeb) process.stdout.write(`\n  Gaia is running at ${s.url}\n\n`);
    await spec.onReady?.(s);
    let shuttingDown = false;
    const onSignal = (signal: string) => {
      // A terminal's Ctrl-C reaches both `npm start` (which forwards it) and this process: act once.
      if (shuttingDown) return;
      shuttingDown = true;
      log.log(`${signal} received, shutting down`);
      const timer = setTimeout(() => {
        log.error('graceful shutdown timed out, exiting');
        process.exit(1);
      }, s.config.SHUTDOWN_GRACE_MS);
      timer.unref();
      s.stop().then(
        () => process.exit(0),
        (e) => {
          log.error(`shutdown failed: ${(e as Error).message}`);
          process.exit(1);
        },
      );
    };
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => onSignal(sig));
    // Started by a supervisor over IPC (`npm start`): if it dies, even by SIGKILL, stop with it.
    if (process.send) process.once('disconnect', () => onSignal('supervisor gone'));
  } catch (e) {
    console.error(`Gaia ${spec.app} could not start: ${startupFailureText(e)}`);
    process.exit(1);
  }
}

/** The real cause of a start-up failure, whatever was thrown (never a bare `undefined`). */
export function startupFailureText(e: unknown): string {
  if (e instanceof ConfigError) return e.message;
  if (e instanceof Error) {
    const cause = e.cause === undefined ? '' : `\ncaused by: ${startupFailureText(e.cause)}`;
    return `${e.stack ?? e.message}${cause}`;
  }
  if (e === undefined || e === null) return 'an unknown error (nothing was thrown with it)';
  return typeof e === 'string' ? e : JSON.stringify(e);
}
