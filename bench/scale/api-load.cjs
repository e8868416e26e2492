/**
 * The real request path under load (issue #13, throughput): the built platform (`dist/apps/platform/main.js`,
 * as `npm start` runs it, in-process messaging, the machine's Postgres on a fresh database) serving the
 * 26k-pair es-gn agent; POST /api/translate with an API key (`stream: false`, varied gn dev sentences) at
 * 1/8/32 connections: req/s, p50/p99, the platform process's CPU time and Postgres round trips per translation
 * (every `Client#query` of the platform process, counted by ./probe.cjs), and a CPU profile of one more
 * 8-connection pass (top self time; the engine's inclusive share against everything else).
 *
 * Set-up shortcuts (the bench measures translations, not ingestion): the agent row and its artifact are
 * written directly (agents table + file storage key), the user is put on the Enterprise plan and the key's
 * daily limit is raised above the run's calls. Everything else goes through HTTP.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const crypto = require('node:crypto');
const os = require('node:os');
const { spawn, spawnSync } = require('node:child_process');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '../..');
const { PLATFORM_NODE_FLAGS } = require('../../apps/platform/node-flags.cjs');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const KEY_DAILY_LIMIT = 10_000_000;
const PROFILED_CONNECTIONS = 8;
const TOP_FUNCTIONS = 15;
const START_TIMEOUT_MS = 180_000;

function ipcChild(file, args, env, execArgv = []) {
  const p = spawn(process.execPath, [...execArgv, file, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  p.stdout.on('data', (c) => (out += c));
  p.stderr.on('data', (c) => (out += c));
  const ask = (msg, key) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m && typeof m === 'object' && key in m) {
          p.off('message', on);
          resolve(m[key]);
        }
      };
      p.on('message', on);
      p.send(msg);
    });
  const waitFor = (re) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`platform did not start:\n${out.slice(-3000)}`)), START_TIMEOUT_MS);
      const check = () => {
        const m = re.exec(out);
        if (m) {
          clearTimeout(t);
          p.stdout.off('data', check);
          resolve(m[1]);
        }
      };
      p.stdout.on('data', check);
      p.on('exit', (code) => reject(new Error(`platform exited (${code}):\n${out.slice(-3000)}`)));
      check();
    });
  return { p, ask, waitFor, log: () => out };
}

function httpJson(url, method, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      { method, headers: { 'content-type': 'application/json', ...(data ? { 'content-length': Buffer.byteLength(data) } : {}), ...headers } },
      (res) => {
        let s = '';
        res.on('data', (c) => (s += c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: s ? JSON.parse(s) : null }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const cookie = (res, name) =>
  (res.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** A fresh database, the platform on it (probe preloaded), a user on Enterprise with an API key, the gn agent. */
async function startPlatform({ artifactFile, workDir, main = path.join(ROOT, 'dist/apps/platform/main.js'), extraEnv = {}, nodeFlags = PLATFORM_NODE_FLAGS }) {
  const dbName = `gaia_bench_api_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const dbUrl = new URL(PG_ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = path.join(workDir, dbName);
  fs.mkdirSync(dataDir, { recursive: true });
  const env = {
    DATABASE_URL: dbUrl.toString(),
    PORT: '0',
    DATA_DIR: dataDir,
    FILE_STORAGE_DIR: path.join(dataDir, 'files'),
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    ...extraEnv,
  };
  // started as npm start and the images start it: the same V8 flags
  const srv = ipcChild(main, [], env, [...nodeFlags, '-r', path.join(__dirname, 'probe.cjs')]);
  const url = await srv.waitFor(/Gaia is running at (\S+)/);
  const base = url.replace(/\/$/, '');

  const email = `bench-${Date.now().toString(36)}@example.org`;
  const signup = await httpJson(`${base}/api/auth/signup`, 'POST', { email, password: 'correct horse battery staple', fullName: 'Bench' });
  if (signup.status !== 201) throw new Error(`signup ${signup.status} ${JSON.stringify(signup.body)}`);
  const uid = signup.body.user.uid;
  const csrf = cookie(signup, 'gaia_csrf');
  const session = `gaia_session=${cookie(signup, 'gaia_session')}; gaia_csrf=${csrf}`;
  const created = await httpJson(`${base}/api/api-keys/create/`, 'POST', { name: 'bench' }, { cookie: session, 'x-csrf-token': csrf });
  if (created.status !== 200) throw new Error(`key ${created.status} ${JSON.stringify(created.body)}`);
  const apiKey = created.body.api_key;

  const db = new Client({ connectionString: dbUrl.toString() });
  await db.connect();
  const agentId = crypto.randomUUID();
  const artifactKey = `agents/${agentId}/artifacts/v1.bin`;
  fs.mkdirSync(path.dirname(path.join(env.FILE_STORAGE_DIR, artifactKey)), { recursive: true });
  fs.copyFileSync(artifactFile, path.join(env.FILE_STORAGE_DIR, artifactKey));
  await db.query(
    `INSERT INTO billing_plan (user_id, plan, changed_at) VALUES ($1, 'enterprise', now()) ON CONFLICT (user_id) DO UPDATE SET plan = 'enterprise'`,
    [uid],
  );
  await db.query(`UPDATE identity_api_key SET rate_limit = $1 WHERE id = $2`, [KEY_DAILY_LIMIT, created.body.key.key_id]);
  await db.query(
    `INSERT INTO agent (id, owner_id, owner_email, src_lang, tgt_lang, custom_prompt, public, processing_status, pair_count, engine, artifact_version, artifact_key, created_at, updated_at)
     VALUES ($1, $2, $3, 'es', 'gn', 'es-gn bench', true, 'COMPLETED', 26032, 'builtin', '1', $4, now(), now())`,
    [agentId, uid, email, artifactKey],
  );
  await db.end();

  const stop = async () => {
    await new Promise((resolve) => {
      srv.p.once('exit', resolve);
      srv.p.kill('SIGTERM');
    });
    const a = new Client({ connectionString: PG_ADMIN_URL });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await a.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, port: Number(new URL(url).port), apiKey, agentId, srv, stop };
}

/** Where a profiled file lives: a gaia lib (`gaia engine/lm.js`), a package, node core or V8. */
function areaOf(cf, file) {
  if (!file) return cf.functionName.startsWith('(') ? cf.functionName : 'node/V8 built-ins';
  if (file.startsWith('node:')) return 'node core';
  if (file.includes('node_modules/')) {
    const rest = file.split('node_modules/').pop();
    return `node_modules/${rest
      .split('/')
      .slice(0, rest.startsWith('@') ? 2 : 1)
      .join('/')}`;
  }
  return /libs\/[^/]+\/[^/]+/.test(file) ? `gaia ${/libs\/([^/]+\/(?:src\/lib\/)?[^/]+)/.exec(file)[1].replace('/src/lib', '')}` : file;
}

const ENGINE_FILE = /libs\/engine\//;
const GAIA_FILE = /(?:libs|apps)\/[^/]+\//;
const IDLE = '(idle)';
/** Samples under the inspector's `post` are the probe asking for the profile (Profiler.stop builds it): not the platform's. */
const PROFILER_URL = 'node:inspector';
/** Samples without a JS stack: V8's collector and native code (`(program)`): neither side's alone. */
const UNATTRIBUTED = new Set(['(garbage collector)', '(program)']);

/**
 * Self time by function (and by where it lives) of a V8 CPU profile, and the split the throughput target is
 * about: the engine's inclusive share of the busy (not idle) samples — any `libs/engine` frame on the stack —
 * against every other JS stack, the latter by area (self time) and by the nearest gaia frame up the stack (who
 * caused it); the collector and native `(program)` samples have no stack and are given apart.
 */
function summarizeProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id) => {
    const ids = [];
    for (let at = id; at !== undefined; at = parent.get(at)) ids.push(at);
    return ids;
  };
  const fileOf = (n) => n.callFrame.url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const fn = new Map();
  const area = new Map();
  const outsideArea = new Map();
  const outsideCaller = new Map();
  const unattributed = new Map();
  let busy = 0;
  let engine = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    const cf = n.callFrame;
    const file = fileOf(n);
    const name = `${cf.functionName || '(anonymous)'} ${file ? `${file}:${cf.lineNumber + 1}` : ''}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + us);
    const where = areaOf(cf, file);
    area.set(where, (area.get(where) ?? 0) + us);
    if (stackOf(id).some((at) => byId.get(at).callFrame.url === PROFILER_URL)) continue; // the profiler's own stop
    if (file) busy += us;
    else if (cf.functionName === IDLE) continue;
    else {
      busy += us;
      if (UNATTRIBUTED.has(cf.functionName)) {
        unattributed.set(cf.functionName, (unattributed.get(cf.functionName) ?? 0) + us);
        continue;
      }
    }
    let inEngine = false;
    let caller = null;
    for (const at of stackOf(id)) {
      const f = fileOf(byId.get(at));
      if (ENGINE_FILE.test(f)) {
        inEngine = true;
        break;
      }
      if (!caller && GAIA_FILE.test(f)) caller = f.replace(/^dist\/out\//, '');
    }
    if (inEngine) {
      engine += us;
      continue;
    }
    outsideArea.set(where, (outsideArea.get(where) ?? 0) + us);
    const by = caller ?? `(no gaia frame: ${where})`;
    outsideCaller.set(by, (outsideCaller.get(by) ?? 0) + us);
  }
  const pct = (us) => Math.round((us / total) * 1000) / 10;
  const busyPct = (us) => Math.round((us / (busy || 1)) * 1000) / 10;
  const top = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_FUNCTIONS)
      .map(([where, us]) => ({ where, busyPct: busyPct(us) }));
  return {
    sampledMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    engineInclusiveBusyPct: busyPct(engine),
    outsideEngineBusyPct: busyPct(busy - engine - [...unattributed.values()].reduce((a, b) => a + b, 0)),
    unattributedBusyPct: Object.fromEntries([...unattributed].map(([k, us]) => [k, busyPct(us)])),
    outsideEngineByArea: top(outsideArea),
    outsideEngineByGaiaCaller: top(outsideCaller),
    byArea: [...area]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_FUNCTIONS)
      .map(([where, us]) => ({ where, selfPct: pct(us) })),
    topSelf: [...fn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_FUNCTIONS)
      .map(([fnName, us]) => ({ fn: fnName, selfPct: pct(us) })),
  };
}

/**
 * req/s at each connection count against the platform, with its CPU time and Postgres round trips per
 * translation; the raw profile of the profiled point is written to `profileOut` (open it in DevTools).
 */
async function apiPoints({
  artifactFile,
  workDir,
  sentences,
  seconds,
  connections,
  load,
  build = true,
  profileOut = path.join(workDir, 'api-profiled-point.cpuprofile'),
}) {
  if (build) {
    const b = spawnSync(process.execPath, [path.join(ROOT, 'tools/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('build failed');
  }
  const plat = await startPlatform({ artifactFile, workDir });
  try {
    const headers = { 'x-api-key': plat.apiKey };
    const body = (text) => ({ text, model_id: plat.agentId, src_lang: 'es', tgt_lang: 'gn', stream: false });
    const first = await httpJson(`${plat.base}/api/translate`, 'POST', body(sentences[0]), headers);
    if (first.status !== 200) throw new Error(`translate ${first.status} ${JSON.stringify(first.body)}`);
    const idle0 = await plat.srv.ask('pg-count', 'pgQueries');
    const idleStart = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    const idlePerSec = ((await plat.srv.ask('pg-count', 'pgQueries')) - idle0) / ((performance.now() - idleStart) / 1000);
    const points = [];
    const s0 = await plat.srv.ask('pg-statements', 'pgStatements');
    const target = { path: '/api/translate', headers, body, serverMs: (a) => a.response_time * 1000 };
    for (const c of connections) {
      const q0 = await plat.srv.ask('pg-count', 'pgQueries');
      const cpu0 = await plat.srv.ask('cpu', 'cpuMicros');
      const log0 = plat.srv.log().length;
      // response_time: the translation service's time from the request to the engine's result; the rest is the edge.
      const run = await load(plat.port, c, seconds, sentences, target);
      const cpuMicros = (await plat.srv.ask('cpu', 'cpuMicros')) - cpu0;
      const q = (await plat.srv.ask('pg-count', 'pgQueries')) - q0;
      const translations = run.completed;
      const logged = plat.srv.log().slice(log0);
      const logLines = logged.split('\n').filter(Boolean);
      points.push({
        ...run,
        // the platform process's CPU (every thread) per answered request, warm-up included
        cpuMsPerTranslation: Math.round((cpuMicros / 1000 / Math.max(1, translations)) * 100) / 100,
        pgQueries: q,
        pgRoundTripsPerTranslation: Math.round((q / Math.max(1, translations)) * 100) / 100,
        logLinesPerTranslation: Math.round((logLines.length / Math.max(1, translations)) * 100) / 100,
        logBytesPerTranslation: Math.round(Buffer.byteLength(logged) / Math.max(1, translations)),
      });
      if (logLines.length) process.stdout.write(`  sample log line: ${logLines[logLines.length - 1].slice(0, 300)}\n`);
      process.stdout.write(
        `API ${c} connections: ${run.reqPerSec} req/s (p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms; translation service p50 ${run.translationServiceMs?.p50} ms), ${points.at(-1).cpuMsPerTranslation} CPU ms per translation, ${points.at(-1).pgRoundTripsPerTranslation} Postgres round trips per translation\n`,
      );
    }
    const s1 = await plat.srv.ask('pg-statements', 'pgStatements');
    const translations = points.reduce((n, p) => n + p.completed, 0);
    const perTranslation = Object.entries(s1)
      .map(([sql, n]) => [sql, (n - (s0[sql] ?? 0)) / Math.max(1, translations)])
      .filter(([, r]) => r >= 0.005)
      .sort((x, y) => y[1] - x[1])
      .map(([sql, r]) => ({ sql, perTranslation: Math.round(r * 100) / 100 }));
    // The profile comes from a pass of its own after the measured points, so the sampler costs none of their numbers.
    await plat.srv.ask('prof-start', 'profiling');
    const profiledRun = await load(plat.port, PROFILED_CONNECTIONS, seconds, sentences, target);
    const raw = await plat.srv.ask('prof-stop', 'profile');
    fs.writeFileSync(profileOut, JSON.stringify(raw));
    const profile = { connections: PROFILED_CONNECTIONS, reqPerSecWhileSampling: profiledRun.reqPerSec, ...summarizeProfile(raw) };
    const where = (rows) => rows.map((r) => `${r.where} ${r.busyPct}%`).join(', ');
    process.stdout.write(
      `profile (${PROFILED_CONNECTIONS} connections, ${profile.busyMs} ms busy): engine ${profile.engineInclusiveBusyPct}%, outside the engine ${profile.outsideEngineBusyPct}%, ` +
        `no stack ${JSON.stringify(profile.unattributedBusyPct)}\n  outside the engine by area: ${where(profile.outsideEngineByArea.slice(0, 8))}\n` +
        `  outside the engine by nearest gaia frame: ${where(profile.outsideEngineByGaiaCaller.slice(0, 8))}\n  raw profile: ${path.relative(ROOT, profileOut)}\n`,
    );
    return { idlePgQueriesPerSecond: Math.round(idlePerSec * 10) / 10, points, pgStatementsPerTranslation: perTranslation, profile };
  } finally {
    await plat.stop();
  }
}

/** Latencies (ms) → n, p50, p99, max. */
function latencyStats(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const q = (p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  const r = (v) => Math.round(v * 100) / 100;
  return { n: s.length, p50: r(q(0.5)), p99: r(q(0.99)), max: r(s[s.length - 1]) };
}

/** Closed-loop load: `connections` keep-alive clients POSTing the sentences in turn for `seconds` (after a warm-up). */
async function closedLoop(port, connections, seconds, sentences, target, warmup = AB_WARMUP_REQUESTS) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const lat = [];
  let errors = 0;
  const one = (text) =>
    new Promise((resolve) => {
      const body = JSON.stringify(target.body(text));
      const t0 = performance.now();
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: target.path,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...target.headers },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) lat.push(performance.now() - t0);
            else errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  let k = 0;
  for (let i = 0; i < warmup; i++) await one(sentences[k++ % sentences.length]);
  lat.length = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) await one(sentences[k++ % sentences.length]);
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  agent.destroy();
  return { reqPerSec: Math.round((lat.length / secs) * 10) / 10, completed: lat.length, errors, latencyMs: latencyStats(lat) };
}

const AB_WARMUP_REQUESTS = 30;
const AB_FIRST_WARMUP_REQUESTS = 300;
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Side by side (`node bench/scale/api-load.cjs --ab <distA> <distB> [--seconds 5] [--rounds 3] [--connections 1,8,32] [--profile] [--artifact <file>] [--text <one text>] [--a-without-node-flags | --without-node-flags] [--out <json> --label <name>]`):
 * two builds of the platform (e.g. a copy of `dist` before a change and one after) run at once on fresh databases
 * and are loaded in alternation (the order flips every round), so the shared machine's noise falls on both alike;
 * prints each point's req/s and CPU ms per translation as medians and the ratio B/A. `--profile` samples every pass
 * and splits the main thread's busy time per translation into the engine's and the rest (what the request path
 * costs around the engine: the steadiest measure of it while other jobs load the machine).
 */
async function abMain(argv) {
  const opt = { seconds: 5, rounds: 3, connections: [1, 8, 32], profile: false };
  const dists = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--ab') dists.push(path.resolve(argv[++i]), path.resolve(argv[++i]));
    else if (argv[i] === '--seconds') opt.seconds = Number(argv[++i]);
    else if (argv[i] === '--rounds') opt.rounds = Number(argv[++i]);
    else if (argv[i] === '--connections') opt.connections = argv[++i].split(',').map(Number);
    else if (argv[i] === '--profile') opt.profile = true;
    else if (argv[i] === '--artifact') opt.artifact = path.resolve(argv[++i]);
    else if (argv[i] === '--out') opt.out = path.resolve(argv[++i]);
    else if (argv[i] === '--text') opt.text = argv[++i];
    else if (argv[i] === '--a-without-node-flags') opt.aWithoutNodeFlags = true;
    else if (argv[i] === '--without-node-flags') opt.aWithoutNodeFlags = opt.bWithoutNodeFlags = true;
    else if (argv[i] === '--label') opt.label = argv[++i];
  }
  const loadavgAtStart = os.loadavg().map((x) => Math.round(x * 10) / 10);
  // the gn agent and sentences of the last `npm run bench:scale -- --api-only` run
  const input = JSON.parse(fs.readFileSync(path.join(ROOT, 'tmp/bench-scale/api-engine-only-input.json'), 'utf8'));
  // --artifact: another es-gn agent (e.g. a few hundred pairs, so the request path outweighs the engine in the measure)
  const artifactFile = opt.artifact ?? input.agents[0].file;
  // --text: one text every time (with a small --artifact the engine's share shrinks and the request path is what is measured)
  const sentences = opt.text ? [opt.text] : input.sentences;
  const workDir = path.join(ROOT, 'tmp/bench-scale/api-ab');
  const plats = [];
  try {
    // BENCH_B_ENV='{"K":"V"}': environment of platform B only (e.g. one setting tried against the same build)
    const envB = JSON.parse(process.env.BENCH_B_ENV ?? '{}');
    for (const [i, d] of dists.entries())
      plats.push(
        await startPlatform({
          artifactFile,
          workDir,
          main: path.join(d, 'apps/platform/main.js'),
          extraEnv: i === 1 ? envB : {},
          // --a-without-node-flags: A as it was started before apps/platform/node-flags.cjs
          nodeFlags: (i === 0 ? opt.aWithoutNodeFlags : opt.bWithoutNodeFlags) ? [] : PLATFORM_NODE_FLAGS,
        }),
      );
    const targets = plats.map((plat) => ({
      path: '/api/translate',
      headers: { 'x-api-key': plat.apiKey },
      body: (text) => ({ text, model_id: plat.agentId, src_lang: 'es', tgt_lang: 'gn', stream: false }),
    }));
    for (let i = 0; i < plats.length; i++) await closedLoop(plats[i].port, 4, 0, sentences, targets[i], AB_FIRST_WARMUP_REQUESTS);
    const res = plats.map(() => new Map(opt.connections.map((c) => [c, []])));
    for (let r = 0; r < opt.rounds; r++)
      for (const c of opt.connections)
        for (const i of r % 2 ? [1, 0] : [0, 1]) {
          const plat = plats[i];
          const cpu0 = await plat.srv.ask('cpu', 'cpuMicros');
          const q0 = await plat.srv.ask('pg-count', 'pgQueries');
          if (opt.profile) await plat.srv.ask('prof-start', 'profiling');
          const run = await closedLoop(plat.port, c, opt.seconds, sentences, targets[i]);
          const n = Math.max(1, run.completed + AB_WARMUP_REQUESTS);
          const cpuMs = ((await plat.srv.ask('cpu', 'cpuMicros')) - cpu0) / 1000 / n;
          const rt = ((await plat.srv.ask('pg-count', 'pgQueries')) - q0) / n;
          // with --profile: the main thread's busy time split into the engine's and everything else's, per translation
          let split = {};
          if (opt.profile) {
            const prof = summarizeProfile(await plat.srv.ask('prof-stop', 'profile'));
            const engineMs = (prof.busyMs * prof.engineInclusiveBusyPct) / 100 / n;
            split = { engineMs, outsideMs: prof.busyMs / n - engineMs };
          }
          res[i].get(c).push({ ...run, cpuMs, rt, ...split });
          process.stdout.write(
            `round ${r + 1} ${'AB'[i]} ${c} conn: ${run.reqPerSec} req/s, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms, ${cpuMs.toFixed(2)} CPU ms, ${rt.toFixed(2)} pg/translation` +
              `${opt.profile ? `, main thread ${split.engineMs.toFixed(2)} ms engine + ${split.outsideMs.toFixed(2)} ms outside it` : ''}${run.errors ? `, ${run.errors} errors` : ''}\n`,
          );
        }
    const r2 = (v) => Math.round(v * 100) / 100;
    const summary = opt.connections.map((c) => {
      const [a, b] = res.map((m) => m.get(c));
      const m = (xs, f) => r2(median(xs.map(f)));
      const rps = [m(a, (x) => x.reqPerSec), m(b, (x) => x.reqPerSec)];
      const cpu = [m(a, (x) => x.cpuMs), m(b, (x) => x.cpuMs)];
      const pairRatios = a.map((x, k) => b[k].reqPerSec / x.reqPerSec);
      return {
        connections: c,
        reqPerSec: { a: rps[0], b: rps[1], ratio: r2(rps[1] / rps[0]), medianPairRatio: r2(median(pairRatios)) },
        cpuMsPerTranslation: { a: cpu[0], b: cpu[1], ratio: r2(cpu[1] / cpu[0]), medianPairRatio: r2(median(a.map((x, k) => b[k].cpuMs / x.cpuMs))) },
        p50Ms: { a: m(a, (x) => x.latencyMs.p50), b: m(b, (x) => x.latencyMs.p50) },
        p99Ms: { a: m(a, (x) => x.latencyMs.p99), b: m(b, (x) => x.latencyMs.p99) },
        pgRoundTrips: { a: m(a, (x) => x.rt), b: m(b, (x) => x.rt) },
        ...(opt.profile
          ? {
              engineMsPerTranslation: { a: m(a, (x) => x.engineMs), b: m(b, (x) => x.engineMs) },
              outsideEngineMsPerTranslation: {
                a: m(a, (x) => x.outsideMs),
                b: m(b, (x) => x.outsideMs),
                ratio: r2(m(b, (x) => x.outsideMs) / m(a, (x) => x.outsideMs)),
              },
            }
          : {}),
      };
    });
    const result = {
      date: new Date().toISOString(),
      a: path.relative(ROOT, dists[0]),
      b: path.relative(ROOT, dists[1]),
      bEnv: envB,
      nodeFlags: { a: opt.aWithoutNodeFlags ? [] : PLATFORM_NODE_FLAGS, b: opt.bWithoutNodeFlags ? [] : PLATFORM_NODE_FLAGS },
      agent: opt.artifact ? path.basename(opt.artifact) : 'es-gn (26,032 pairs)',
      texts: opt.text ? `"${opt.text}" every time` : `${sentences.length} gn dev sentences in turn`,
      secondsPerPass: opt.seconds,
      rounds: opt.rounds,
      machine: { cpus: os.cpus().length, node: process.version, loadavgAtStart, loadavgAtEnd: os.loadavg().map((x) => Math.round(x * 10) / 10) },
      summary,
    };
    process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
    // --out <file> [--label name]: kept under result[label] (other labels of the file stay)
    if (opt.out) {
      const all = fs.existsSync(opt.out) ? JSON.parse(fs.readFileSync(opt.out, 'utf8')) : {};
      all[opt.label ?? result.date] = result;
      fs.writeFileSync(opt.out, JSON.stringify(all, null, 2) + '\n');
    }
  } finally {
    for (const p of plats) await p.stop();
  }
}

if (require.main === module)
  abMain(process.argv.slice(2)).then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );

module.exports = { apiPoints, summarizeProfile, startPlatform, closedLoop };
