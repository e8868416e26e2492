#!/usr/bin/env node
// `npm start`: installs what is missing, builds what changed, and serves the whole platform in one
// process on embedded defaults (embedded Postgres under ./data, in-process messaging) at PORT (8080).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  console.error(`Gaia needs Node.js 20 or newer (this is ${process.versions.node}).`);
  process.exit(1);
}

const t0 = Date.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const marker = join(root, 'node_modules/.package-lock.json');
const lock = join(root, 'package-lock.json');
if (!existsSync(marker) || statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
  console.log('Installing dependencies (first run)…');
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const b = spawnSync(process.execPath, [join(root, 'tools/build.mjs')], { cwd: root, stdio: 'inherit' });
if (b.status !== 0) process.exit(b.status ?? 1);
console.log(`Built in ${((Date.now() - t0) / 1000).toFixed(1)} s; starting the platform…`);

// The platform gets an IPC channel: should this supervisor die, even by SIGKILL, the platform stops too.
// Its V8 flags (a larger young generation) are the ones the images use: apps/platform/node-flags.cjs.
const { PLATFORM_NODE_FLAGS } = createRequire(import.meta.url)('../apps/platform/node-flags.cjs');
const child = spawn(process.execPath, [...PLATFORM_NODE_FLAGS, join(root, 'dist/apps/platform/main.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, PORT: process.env.PORT ?? '8080', DATA_DIR: process.env.DATA_DIR ?? join(root, 'data') },
});
// A process manager's SIGTERM, Ctrl-C or a closed terminal: the platform drains, stops Postgres, exits.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
// `npm start` runs this under `sh -c`, which dies on SIGTERM without passing it on: treat a lost parent
// (this process re-parented) as a SIGTERM so the tree never outlives it.
const PARENT_CHECK_MS = 250;
const parent = process.ppid;
const watchParent = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(watchParent);
    child.kill('SIGTERM');
  }
}, PARENT_CHECK_MS);
child.on('exit', (code, signal) => {
  clearInterval(watchParent);
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
});
