/**
 * Runs the built platform (`dist/apps/platform/main.js`) or `npm start` the way a newcomer does: embedded
 * Postgres under a DATA_DIR of the test's choosing, a free PORT. Build first: `node tools/build.mjs`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { waitFor } from '@gaia/testing';

export const ROOT = join(__dirname, '..', '..', '..');
const OUTPUT_LIMIT = 100_000;
/** First start of a fresh data folder runs initdb and every migration on a shared 2-core machine. */
export const FIRST_START_TIMEOUT_MS = 240_000;

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface PlatformProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | null>;
}

/** Environment of a platform on embedded defaults (no DATABASE_URL, in-process messaging). */
export function platformEnv(dataDir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    MESSAGING_TRANSPORT: 'inprocess',
    ...extra,
  };
  // The test runner's own fixed embedded port must not leak into a platform that should pick one.
  if (!('EMBEDDED_POSTGRES_PORT' in extra)) delete env['EMBEDDED_POSTGRES_PORT'];
  return env;
}

function watch(child: ChildProcess, port: number): PlatformProcess {
  let out = '';
  const keep = (d: Buffer) => (out = (out + String(d)).slice(-OUTPUT_LIMIT));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, port, output: () => out, exited };
}

/** `node dist/apps/platform/main.js` */
export function startPlatform(dataDir: string, port: number, extra: Record<string, string> = {}): PlatformProcess {
  const child = spawn(process.execPath, [join(ROOT, 'dist/apps/platform/main.js')], {
    cwd: ROOT,
    env: platformEnv(dataDir, port, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watch(child, port);
}

/** `npm start`, as its own process group (so the test can see every process of the tree). */
export function npmStart(dataDir: string, port: number, extra: Record<string, string> = {}): PlatformProcess {
  const child = spawn('npm', ['start'], { cwd: ROOT, env: platformEnv(dataDir, port, extra), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return watch(child, port);
}

export async function ready(p: PlatformProcess, timeoutMs = FIRST_START_TIMEOUT_MS): Promise<void> {
  await waitFor(
    () => {
      if (p.child.exitCode !== null) throw new Error(`platform exited with code ${p.child.exitCode}: ${p.output().slice(-4000)}`);
      return fetch(`http://127.0.0.1:${p.port}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
    },
    (s) => s === 200,
    { timeoutMs, intervalMs: 200, what: `platform /readyz on ${p.port}` },
  );
}

export async function stop(p: PlatformProcess): Promise<number | null> {
  if (p.child.exitCode === null) p.child.kill('SIGTERM');
  return p.exited;
}

/** Live processes whose process group is `pgid` (from /proc: no `ps` needed). */
export function processGroup(pgid: number): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …: comm may hold spaces, so split after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z')
        found.push({ pid: Number(name), cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() });
    } catch {
      // the process ended while being read
    }
  }
  return found;
}

/** True while something accepts TCP connections on 127.0.0.1:port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Port of the embedded Postgres a data folder remembers. */
export function embeddedPort(dataDir: string): number {
  return (JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as { port: number }).port;
}

/**
 * Removes a test's data folder and, when its embedded cluster lives outside it (as root, under
 * /var/lib/gaia/clusters), that cluster too.
 */
export function removeDataFolder(folder: string): void {
  const walk = (dir: string): string[] => {
    if (!existsSync(dir)) return [];
    const found = existsSync(join(dir, 'postgres.json')) ? [dir] : [];
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && e.name !== 'postgres') found.push(...walk(join(dir, e.name)));
    return found;
  };
  for (const dataDir of walk(folder)) {
    const { clusterDir } = JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as { clusterDir: string };
    if (!resolve(clusterDir).startsWith(resolve(folder))) rmSync(clusterDir, { recursive: true, force: true });
  }
  rmSync(folder, { recursive: true, force: true });
}
