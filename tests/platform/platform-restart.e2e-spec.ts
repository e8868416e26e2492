import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { Client } from 'pg';
import { waitFor } from '@gaia/testing';

const root = join(__dirname, '../..');
let PORT = 0;
let PG_PORT = 0;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function startPlatform(dataDir: string): ChildProcess {
  return spawn(process.execPath, [join(root, 'dist/apps/platform/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      EMBEDDED_POSTGRES_PORT: String(PG_PORT),
      LOG_LEVEL: 'warn',
      MESSAGING_TRANSPORT: 'inprocess',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function ready(child: ChildProcess): Promise<number> {
  return waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`platform exited with code ${child.exitCode}`);
      return fetch(`http://127.0.0.1:${PORT}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
    },
    (s) => s === 200,
    { timeoutMs: 240_000, intervalMs: 200, what: 'platform /readyz' },
  );
}

async function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGTERM');
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

async function sql<T>(dataDir: string, q: string, params: unknown[] = []): Promise<T[]> {
  const password = readFileSync(join(dataDir, '.postgres-password'), 'utf8').trim();
  const c = new Client({ host: '127.0.0.1', port: PG_PORT, user: 'gaia', password, database: 'gaia' });
  await c.connect();
  try {
    return (await c.query(q, params)).rows as T[];
  } finally {
    await c.end();
  }
}

describe('platform on embedded defaults', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaia-platform-'));
  beforeAll(async () => {
    PORT = await freePort();
    PG_PORT = await freePort();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts from an empty data folder, is ready, stops on SIGTERM, and keeps its data across a restart', async () => {
    let child = startPlatform(dataDir);
    try {
      await ready(child);
      const web = await fetch(`http://127.0.0.1:${PORT}/`);
      expect(web.status).toBe(200);
      expect(await web.text()).toContain('<div id="root">');
      const health = await (await fetch(`http://127.0.0.1:${PORT}/healthz`)).json();
      expect(health).toEqual({ status: 'ok' });
      const migrations = await sql<{ name: string }>(dataDir, 'SELECT name FROM schema_migrations');
      expect(migrations.map((m) => m.name)).toContain('MessagingInit1767000000000');
      await sql(dataDir, `INSERT INTO diagnostics_probe_applied (run_id, seq, event_id, applied_by) VALUES ('restart-marker', 1, gen_random_uuid(), 'test')`);
    } finally {
      expect(await stop(child)).toBe(0);
    }

    child = startPlatform(dataDir);
    try {
      await ready(child);
      const rows = await sql<{ run_id: string }>(dataDir, `SELECT run_id FROM diagnostics_probe_applied WHERE run_id = 'restart-marker'`);
      expect(rows).toHaveLength(1);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 600_000);
});
