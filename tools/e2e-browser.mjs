#!/usr/bin/env node
// Browser end-to-end tier: starts the built platform on a fresh database, points the Vitest browser
// suites (tests/e2e/*/vitest.config.ts, playwright-core driving /usr/bin/chromium) at it through
// GAIA_E2E_BASE_URL, and stops everything afterwards. With GAIA_E2E_BASE_URL already set, uses that server.
//   node tools/e2e-browser.mjs [--json-dir DIR] [suite …]   suites: folder names under tests/e2e
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const jsonDirIdx = args.indexOf('--json-dir');
const jsonDir = jsonDirIdx >= 0 ? args.splice(jsonDirIdx, 2)[1] : join(root, 'tmp/test-results');
const suites = args.length
  ? args
  : readdirSync(join(root, 'tests/e2e'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, 'tests/e2e', d.name, 'vitest.config.ts')))
      .map((d) => d.name);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`browser tests need Chromium at ${chromium} (apt-get install -y chromium)`);
  process.exit(1);
}

const freePort = () =>
  new Promise((r) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => r(p));
    });
  });
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let platform;
let dbName;
let dataDir;
let base = process.env.GAIA_E2E_BASE_URL;
async function startPlatform() {
  dbName = `gaia_e2e_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'gaia-e2e-'));
  platform = spawn(process.execPath, [join(root, 'dist/apps/platform/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: u.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      MESSAGING_TRANSPORT: 'inprocess',
      OUTBOX_POLL_MS: '200',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (platform.exitCode !== null) throw new Error(`platform exited with ${platform.exitCode}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('platform did not become ready');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopPlatform() {
  if (platform && platform.exitCode === null) {
    platform.kill('SIGTERM');
    await new Promise((r) => platform.once('exit', r));
  }
  if (dbName) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

let status = 0;
try {
  if (!base) await startPlatform();
  mkdirSync(jsonDir, { recursive: true });
  for (const suite of suites) {
    console.log(`\n── browser suite: ${suite} (${base}) ──`);
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        join(root, 'tests/e2e', suite, 'vitest.config.ts'),
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${join(jsonDir, `browser-${suite}.json`)}`,
      ],
      {
        cwd: root,
        stdio: 'inherit',
        // The suites read the platform's embedded mailbox (DATA_DIR/mailbox) to follow verification and invitation links.
        env: { ...process.env, GAIA_E2E_BASE_URL: base, ...(dataDir ? { GAIA_E2E_DATA_DIR: dataDir } : {}) },
      },
    );
    if (r.status !== 0) status = r.status ?? 1;
  }
} catch (e) {
  console.error(e);
  status = 1;
} finally {
  await stopPlatform();
}
process.exit(status);
