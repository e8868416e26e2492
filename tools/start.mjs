#!/usr/bin/env node
// `npm start`: installs what is missing, builds what changed, and serves the whole platform in one
// process on embedded defaults (embedded Postgres under ./data, in-process messaging) at PORT (8080).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

const child = spawn(process.execPath, [join(root, 'dist/apps/platform/main.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: process.env.PORT ?? '8080', DATA_DIR: process.env.DATA_DIR ?? join(root, 'data') },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
