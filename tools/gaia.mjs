#!/usr/bin/env node
// `npx gaia <command>`: the operator's command line (see README "First run" and `npx gaia help`).
// Builds the backend when it is missing, then runs the platform's CLI entry on the same config as
// `npm start` (DATABASE_URL, or the embedded Postgres under DATA_DIR, default ./data).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/out/apps/platform/src/cli.js');
if (!existsSync(entry)) {
  const b = spawnSync(process.execPath, [join(root, 'tools/build.mjs'), '--backend'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const child = spawn(process.execPath, ['-r', 'source-map-support/register', entry, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? join(root, 'data'), LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
