#!/usr/bin/env node
// `npm test`: the whole suite, tier by tier — unit (Jest), web components (Vitest), integration (real
// Postgres/NATS/Redis), end-to-end (API, multi-process, browser). Prints one closing line:
// "N passed, N failed". Options: --tier unit|web|integration|e2e (repeatable), extra args go to Jest.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const tiers = [];
const passThrough = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--tier') tiers.push(argv[++i]);
  else passThrough.push(argv[i]);
}
const selected = tiers.length ? tiers : ['static', 'unit', 'web', 'integration', 'e2e', 'browser'];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const marker = join(root, 'node_modules/.package-lock.json');
if (!existsSync(marker) || statSync(join(root, 'package-lock.json')).mtimeMs > statSync(marker).mtimeMs) {
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// e2e tiers run the built apps.
if (selected.includes('e2e') || selected.includes('browser')) {
  const b = spawnSync(process.execPath, [join(root, 'tools/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const outDir = join(root, 'tmp/test-results');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedTiers = [];

function jest(name, config) {
  const out = join(outDir, `${name}.json`);
  const t0 = Date.now();
  console.log(`\n━━ ${name} tests ━━`);
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/jest/bin/jest.js'),
      '-c',
      config,
      '--json',
      `--outputFile=${out}`,
      '--passWithNoTests',
      ...(process.env.CI ? ['--ci'] : []),
      ...passThrough,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-old-space-size=4096'].filter(Boolean).join(' ') },
    },
  );
  record(
    name,
    r.status,
    out,
    (j) => ({ passed: j.numPassedTests, failed: j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0), skipped: j.numPendingTests + j.numTodoTests }),
    t0,
  );
}

function vitest() {
  const cfg = ['vite.config.ts', 'vitest.config.ts'].map((f) => join(root, 'apps/web', f)).find((f) => existsSync(f));
  if (!cfg) return;
  const out = join(outDir, 'web.json');
  const t0 = Date.now();
  console.log('\n━━ web component tests ━━');
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', cfg, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { cwd: root, stdio: 'inherit' },
  );
  record('web', r.status, out, (j) => ({ passed: j.numPassedTests, failed: j.numFailedTests, skipped: (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0) }), t0);
}

/** Strict TypeScript for every project, the lint rules (module boundaries included) and the formatting; one check each. */
function staticChecks() {
  console.log('\n━━ static checks ━━');
  const t0 = Date.now();
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const checks = [
    ['typecheck: services and libs', [tsc, '-p', 'tsconfig.json', '--noEmit']],
    ['typecheck: web app', [tsc, '-p', 'apps/web/tsconfig.json', '--noEmit']],
    ...['public', 'dashboard']
      .filter((s) => existsSync(join(root, 'tests/e2e', s, 'tsconfig.json')))
      .map((s) => [`typecheck: browser tests (${s})`, [tsc, '-p', `tests/e2e/${s}/tsconfig.json`, '--noEmit']]),
    ['project graph', [join(root, 'node_modules/nx/dist/bin/nx.js'), 'graph', '--file=tmp/graph.json']],
    ['lint (eslint, module boundaries)', [join(root, 'node_modules/eslint/bin/eslint.js'), '.', '--quiet']],
    ['format (prettier --check, .prettierrc.json)', [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '.', '--log-level', 'warn']],
  ];
  let failed = 0;
  for (const [name, cmd] of checks) {
    const r = spawnSync(process.execPath, cmd, { cwd: root, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } });
    const ok = r.status === 0;
    if (!ok) failed++;
    console.log(`${ok ? '✓' : '✕'} ${name}`);
    if (!ok) console.log(`${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(0, 60).join('\n'));
  }
  totals.passed += checks.length - failed;
  totals.failed += failed;
  if (failed) failedTiers.push('static');
  console.log(`static: ${checks.length - failed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

function browser() {
  const t0 = Date.now();
  console.log('\n━━ browser tests (Chromium) ━━');
  const r = spawnSync(process.execPath, [join(root, 'tools/e2e-browser.mjs'), '--json-dir', outDir], { cwd: root, stdio: 'inherit' });
  const files = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.startsWith('browser-')) : [];
  const c = { passed: 0, failed: 0, skipped: 0 };
  for (const f of files) {
    try {
      const j = JSON.parse(readFileSync(join(outDir, f), 'utf8'));
      c.passed += j.numPassedTests;
      c.failed += j.numFailedTests;
      c.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
    } catch {
      c.failed++;
    }
  }
  if (r.status !== 0 && c.failed === 0) c.failed = 1;
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
  if (r.status !== 0) failedTiers.push('browser');
  console.log(`browser: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

function record(name, status, out, pick, t0) {
  let c = { passed: 0, failed: status === 0 ? 0 : 1, skipped: 0 };
  if (existsSync(out)) {
    try {
      c = pick(JSON.parse(readFileSync(out, 'utf8')));
      if (status !== 0 && c.failed === 0) c.failed = 1; // runner failed outside a test (setup, compile)
    } catch {
      /* keep the fallback */
    }
  }
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
  if (status !== 0) failedTiers.push(name);
  console.log(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

for (const tier of selected) {
  if (tier === 'static') staticChecks();
  else if (tier === 'unit') jest('unit', join(root, 'jest.config.js'));
  else if (tier === 'web') vitest();
  else if (tier === 'integration') jest('integration', join(root, 'jest.integration.config.js'));
  else if (tier === 'e2e') jest('e2e', join(root, 'jest.e2e.config.js'));
  else if (tier === 'browser') browser();
}

console.log(`\n${failedTiers.length ? `failed tiers: ${failedTiers.join(', ')}` : 'all tiers green'}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedTiers.length ? 1 : 0);
