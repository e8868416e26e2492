#!/usr/bin/env node
// `npx gaia-translate …` in this repo (the root package depends on file:libs/client, which links this bin):
// the translation CLI of @gaia/client (libs/client/src/cli).
// Builds the client (dist/libs/client-cli, JS only) when it is missing or older than its sources, then runs it.
// Published, the same CLI is the `gaia-translate` bin of @gaia/client.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// Its own build (JS only, no declarations: quick), apart from the publishable dist/libs/client.
const outDir = join(root, 'dist/libs/client-cli');
const entry = join(outDir, 'cjs/cli/main.cjs');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = [join(root, 'libs/client/src'), join(root, 'libs/contracts/src')];
if (!existsSync(entry) || Math.max(...sources.map(newest)) > statSync(entry).mtimeMs) {
  const b = spawnSync(process.execPath, [join(root, 'tools/build-client.mjs'), outDir, '--js-only'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const child = spawn(process.execPath, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
