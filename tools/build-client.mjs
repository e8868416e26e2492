#!/usr/bin/env node
// Builds the publishable @gaia/client package (libs/client) into dist/libs/client (or the given directory):
//   esm/   ES modules (import)        cjs/   CommonJS (require)
//   types/ declarations (the client's and the contract types it uses; zod is a types-only peer)
//   package.json with the exports map, README.md
// The client only has type imports of @gaia/contracts, so the JS has no dependency beyond global fetch.
//   node tools/build-client.mjs [outDir] [--js-only]   (--js-only: no declarations, for tests that only run it)
import { transformFile } from '@swc/core';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'libs/client/src');
const args = process.argv.slice(2);
const jsOnly = args.includes('--js-only');
const out = resolve(args.find((a) => !a.startsWith('--')) ?? join(root, 'dist/libs/client'));
const isSource = (f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(spec|integration-spec|e2e-spec)\.ts$/.test(f);

function walk(dir, files = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, files);
    else if (isSource(p)) files.push(p);
  }
  return files;
}

/**
 * Relative specifiers get their extension (ESM needs it); anything else would be a runtime dependency. The
 * CLI (src/cli) may also use Node's built-in modules (`node:…`); the library may not.
 */
function rewriteImports(code, file, ext) {
  const isCli = relative(src, file).startsWith('cli');
  return code
    .replace(/(from\s+|require\()(['"])(\.{1,2}\/[^'"]+)\2/g, (_, lead, q, spec) => `${lead}${q}${spec}${ext}${q}`)
    .replace(/(from\s+|require\()(['"])([^.'"][^'"]*)\2/g, (m, _l, _q, spec) => {
      if (isCli && spec.startsWith('node:')) return m;
      throw new Error(
        `${relative(root, file)} imports '${spec}' at run time: @gaia/client may only use relative imports (type-only imports of @gaia/contracts are fine; the CLI may use node: built-ins)`,
      );
    });
}

async function compile(file, type) {
  const { code } = await transformFile(file, {
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: type === 'esm' ? 'es6' : 'commonjs', strict: true },
    sourceMaps: false,
  });
  const ext = type === 'esm' ? '.js' : '.cjs';
  const target = join(out, type, relative(src, file).replace(/\.ts$/, ext));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, rewriteImports(code, file, ext));
}

rmSync(out, { recursive: true, force: true });
const files = walk(src);
for (const f of files) {
  await compile(f, 'esm');
  await compile(f, 'cjs');
}

// Declarations: the client and the contract files it refers to, with the alias made relative.
if (!jsOnly) {
  const tsc = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(root, 'libs/client/tsconfig.lib.json'),
      '--declaration',
      '--emitDeclarationOnly',
      '--noEmit',
      'false',
      '--sourceMap',
      'false',
      '--rootDir',
      join(root, 'libs'),
      '--outDir',
      join(out, 'types'),
    ],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  for (const f of listDts(join(out, 'types/client/src'))) {
    const text = readFileSync(f, 'utf8');
    const rel = relative(dirname(f), join(out, 'types/contracts/src/index')).replace(/\\/g, '/');
    writeFileSync(f, text.replace(/(['"])@gaia\/contracts\1/g, `$1${rel.startsWith('.') ? rel : `./${rel}`}$1`));
  }
}

function listDts(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) listDts(p, acc);
    else if (p.endsWith('.d.ts')) acc.push(p);
  }
  return acc;
}

const manifest = JSON.parse(readFileSync(join(root, 'libs/client/package.json'), 'utf8'));
writeFileSync(join(out, 'esm/package.json'), `${JSON.stringify({ type: 'module' })}\n`);
// In the repo the bin builds then runs the CLI (libs/client/bin); published, it is the built CLI itself.
manifest.bin = { 'gaia-translate': './cjs/cli/main.cjs' };
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(join(root, 'libs/client/README.md'), join(out, 'README.md'));
console.log(`@gaia/client built in ${relative(root, out) || out} (${files.length} modules, ESM + CJS${jsOnly ? '' : ' + types'})`);
