#!/usr/bin/env node
/**
 * Many agents on one box (issue #13):
 *   npm run bench:scale [-- --data ../shared/data/americasnlp2021] [--agents 50] [--pairs 500000] [--budget-mb N]
 *                       [--seconds 8] [--out bench/results/scale.json]   (budget default: the config's TRANSLATION_AGENT_CACHE_MB)
 *                       [--serve-flags "<V8 flags>"]   (the serving child's; default: apps/platform/node-flags.cjs, as deployed)
 *
 * 1. build: the AmericasNLP train files as real agents (artifacts cached under tmp/bench-scale, rebuilt when the
 *    engine sources change), plus synthetic agents up to --agents / --pairs: copies of the real agents' artifacts
 *    under new agent ids (each one a separate file the server must load on its own).
 * 2. serve (fresh child process): the translation service's own AgentLoader (LRU by bytes, --budget-mb) over the
 *    stored artifacts; every agent translates (cold: first request, load included), RSS sampled throughout;
 *    then an HTTP endpoint around it and a bare Node HTTP server, both loaded by a Node client at 1/8/32
 *    connections with the gn dev sentences — side by side in the same run.
 * Writes bench/results/scale.json and prints a Markdown table. Timings on a shared machine: medians and ratios.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const http = require('node:http');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');
const { PLATFORM_NODE_FLAGS } = require('../../apps/platform/node-flags.cjs');

const ROOT = path.resolve(__dirname, '../..');
require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly

const LANGS = ['aym', 'cni', 'gn', 'nah', 'oto', 'quy', 'shp', 'tar'];
const CONNECTIONS = [1, 8, 32];
const WARMUP_REQUESTS = 50;

function args(argv) {
  const a = {
    data: path.resolve(ROOT, '../shared/data/americasnlp2021'),
    agents: 50,
    pairs: 500000,
    budgetMb: configuredBudgetMb(),
    seconds: 8,
    out: path.join(ROOT, 'bench/results/scale.json'),
    mode: 'main',
    port: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === '--data') a.data = path.resolve(v);
    else if (k === '--agents') a.agents = Number(v);
    else if (k === '--pairs') a.pairs = Number(v);
    else if (k === '--budget-mb') a.budgetMb = Number(v);
    else if (k === '--seconds') a.seconds = Number(v);
    else if (k === '--out') a.out = path.resolve(v);
    else if (k === '--input') a.input = v;
    else if (k === '--langs') a.langs = v.split(',');
    else if (k === '--api-label') a.apiLabel = v;
    else if (k === '--serve-flags') a.serveFlags = v.split(' ').filter(Boolean);
    else if (k === '--no-build') {
      a.noBuild = true;
      continue;
    } else if (k === '--api-only') {
      a.apiOnly = true;
      continue;
    } else if (k === '--build-only') {
      a.buildOnly = true;
      continue;
    } else if (k === '--serve') {
      a.mode = 'serve';
      continue;
    } else if (k === '--bare') {
      a.mode = 'bare';
      continue;
    } else continue;
    i++;
  }
  return a;
}

const CACHE = path.join(ROOT, 'tmp/bench-scale');

/** The LRU budget a platform gets by default: TRANSLATION_AGENT_CACHE_MB of the validated config. */
function configuredBudgetMb() {
  const { VARIABLE_GROUPS } = require(path.join(ROOT, 'libs/shared/config/src/catalog.ts'));
  return VARIABLE_GROUPS.translation.TRANSLATION_AGENT_CACHE_MB.schema.parse(undefined);
}
const readLines = (f) =>
  fs
    .readFileSync(f, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((_, i, all) => i < all.length - 1 || all[i] !== '');
function readPairs(data, lang, split) {
  const s = readLines(path.join(data, `es-${lang}`, `${split}.es`));
  const t = readLines(path.join(data, `es-${lang}`, `${split}.${lang}`));
  const n = Math.min(s.length, t.length);
  const out = [];
  // ids by position among the kept pairs: a rule the index stores instead of an id table, as it does for the ids
  // ingestion gives (a hash of the pair); numbered by line, quy's two empty lines cost it a 21 KB table no agent has
  for (let i = 0; i < n; i++) if (s[i].trim() && t[i].trim()) out.push({ id: `${lang}-${out.length}`, source: s[i], target: t[i] });
  return out;
}

function engineHash() {
  const h = crypto.createHash('sha256');
  const dir = path.join(ROOT, 'libs/engine/src/lib');
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.ts') && !f.endsWith('.spec.ts')) h.update(fs.readFileSync(path.join(dir, f)));
  // and what a build stores of them (the storage bound)
  h.update(fs.readFileSync(path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts')));
  return h.digest('hex').slice(0, 12);
}

/** The real train files as agents. */
function realSpecs(a) {
  return LANGS.filter((l) => !a.langs || a.langs.includes(l))
    .filter((l) => fs.existsSync(path.join(a.data, `es-${l}`, 'train.es')))
    .map((l) => ({ id: `real-${l}`, lang: l, pairs: readPairs(a.data, l, 'train') }));
}

async function build(a) {
  const engine = require(path.join(ROOT, 'libs/engine/src/index.ts'));
  const { encodeAgentArtifacts, artifactKey, pairsTextBytes, withinStoredBound } = require(
    path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'),
  );
  const hash = engineHash();
  const storeDir = path.join(CACHE, hash);
  const agents = [];
  for (const s of realSpecs(a)) {
    const file = path.join(storeDir, artifactKey(s.id, '1'));
    const metaFile = `${file}.json`;
    if (!fs.existsSync(metaFile)) {
      const pairs = s.pairs;
      const t0 = Date.now();
      const model = engine.trainAgentModel(pairs);
      const index = new engine.HybridIndex();
      index.add(pairs);
      // as a build stores it: within the storage bound (the character LMs cut to the order that fits)
      const bytes = encodeAgentArtifacts(withinStoredBound({ model: engine.serializeModel(model), index: index.serialize() }, pairsTextBytes(pairs)));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytes);
      fs.writeFileSync(metaFile, JSON.stringify({ pairs: pairs.length, textBytes: pairsTextBytes(pairs), trainMs: Date.now() - t0 }));
      process.stdout.write(`built ${s.id}: ${pairs.length} pairs, ${(bytes.length / 1e6).toFixed(1)} MB, ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    }
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
    agents.push({ id: s.id, lang: s.lang, pairs: meta.pairs, textBytes: meta.textBytes, artifactBytes: fs.statSync(file).size, file });
  }
  const real = agents.slice();
  let total = real.reduce((x, r) => x + r.pairs, 0);
  const nSynth = Math.max(0, a.agents - real.length);
  for (let k = 0; k < nSynth; k++) {
    // the smallest real agent that keeps the total on course for --pairs, else the largest below it
    const left = (a.pairs - total) / (nSynth - k);
    const src = [...real].sort((x, y) => Math.abs(x.pairs - left) - Math.abs(y.pairs - left))[0];
    const id = `synthetic-${String(k).padStart(2, '0')}`;
    const file = path.join(storeDir, artifactKey(id, '1'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(src.file, file);
    agents.push({ id, lang: `copy-of-${src.lang}`, pairs: src.pairs, textBytes: src.textBytes, artifactBytes: src.artifactBytes, file });
    total += src.pairs;
  }
  return { storeDir, hash, agents };
}

/* ------------------------------------------------------------------ serve (child process) */

function stats(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const q = (p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  const r = (v) => Math.round(v * 100) / 100;
  return { n: s.length, p50: r(q(0.5)), p99: r(q(0.99)), max: r(s[s.length - 1]) };
}

async function serve(a) {
  const { AgentLoader } = require(path.join(ROOT, 'libs/translation/data-access/src/lib/agent-loader.ts'));
  const { buildAgentBrain } = require(path.join(ROOT, 'libs/translation/data-access/src/lib/engine-knowledge.ts'));
  const { decodeAgentArtifacts, artifactKey } = require(path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'));
  const input = JSON.parse(fs.readFileSync(a.input, 'utf8'));
  const artifacts = {
    async load(id, version) {
      const f = path.join(input.storeDir, artifactKey(id, version));
      return fs.existsSync(f) ? decodeAgentArtifacts(await fs.promises.readFile(f)) : null;
    },
  };
  const loader = new AgentLoader(artifacts, (x, langs) => buildAgentBrain(x, langs, 5), { maxBytes: a.budgetMb * 1024 * 1024 });
  const profile = (id) => ({ id, srcLang: 'es', tgtLang: 'xx', engine: 'builtin', coreMemory: '', customPrompt: null, artifactsVersion: '1' });
  let maxRss = process.memoryUsage().rss;
  const sample = () => (maxRss = Math.max(maxRss, process.memoryUsage().rss));
  const sampler = setInterval(sample, 20);
  const sentences = input.sentences;
  const translate = async (id, text) => (await loader.load(profile(id))).knowledge.draft(text, 'forward', 5);

  // every agent, twice round: the first request of each is cold (load + translate), the LRU evicts by bytes
  const cold = [];
  const answered = new Set();
  for (let round = 0; round < 2; round++)
    for (const [i, ag] of input.agents.entries()) {
      const warm = loader.isWarm(ag.id);
      const t0 = performance.now();
      const r = await translate(ag.id, sentences[(i + round) % sentences.length]);
      const ms = performance.now() - t0;
      if (!warm) cold.push(ms);
      if (r.translation.trim()) answered.add(ag.id);
      sample();
    }
  const gnId = input.agents.find((x) => x.lang === 'gn')?.id ?? input.agents[0].id;
  // cold first translation of the gn agent alone (dropped, then loaded again), 5 times
  const gnCold = [];
  for (let i = 0; i < 5; i++) {
    loader.invalidate(gnId);
    const t0 = performance.now();
    await translate(gnId, sentences[i]);
    gnCold.push(performance.now() - t0);
  }
  const warm = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await translate(gnId, sentences[i % sentences.length]);
    warm.push(performance.now() - t0);
  }
  sample();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const { text } = JSON.parse(body);
      const r = await translate(gnId, text);
      const out = JSON.stringify({ translation: r.translation, confidence: r.confidence });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
      sample();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
  // the parent runs the load, then asks for the report on stdin
  await new Promise((r) => process.stdin.once('data', r));
  clearInterval(sampler);
  sample();
  const cache = loader.stats();
  process.stdout.write(
    JSON.stringify({
      report: { cold: stats(cold), gnCold: stats(gnCold), warm: stats(warm), maxRssMB: Math.round(maxRss / 1e5) / 10, answered: answered.size, cache },
    }) + '\n',
  );
  server.close();
  process.exit(0);
}

function bare() {
  const server = http.createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      const out = JSON.stringify({ translation: 'ok', confidence: 1 });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
}

/* ------------------------------------------------------------------ load client */

async function load(port, connections, seconds, sentences, target = { path: '/translate', headers: {}, body: (text) => ({ text }) }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const lat = [];
  /** The translation service's own time per request (target.serverMs of the answer), when the target tells it. */
  const server = [];
  let errors = 0;
  let completed = 0;
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
          let answer = '';
          res.on('data', (c) => {
            if (target.serverMs) answer += c;
          });
          res.on('end', () => {
            if (res.statusCode === 200) {
              lat.push(performance.now() - t0);
              completed++;
              if (target.serverMs) server.push(target.serverMs(JSON.parse(answer)));
            } else errors++;
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
  for (let i = 0; i < WARMUP_REQUESTS; i++) await one(sentences[i % sentences.length]);
  lat.length = 0;
  server.length = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let k = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await one(sentences[k++ % sentences.length]);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  agent.destroy();
  return {
    connections,
    reqPerSec: Math.round((lat.length / secs) * 10) / 10,
    errors,
    completed,
    latencyMs: stats(lat),
    ...(server.length ? { translationServiceMs: stats(server) } : {}),
  };
}

/** The serving child runs with the V8 flags of every process that serves translations, so its RSS is the deployed one. */
function child(args, nodeFlags = PLATFORM_NODE_FLAGS) {
  const p = spawn(process.execPath, [...nodeFlags, __filename, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = [];
  let buf = '';
  const waiters = [];
  p.stdout.on('data', (c) => {
    buf += c;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.startsWith('{')) {
        lines.push(JSON.parse(line));
        waiters.splice(0).forEach((w) => w());
      } else process.stdout.write(`  [${args[0]}] ${line}\n`);
    }
  });
  const next = async (key) => {
    for (;;) {
      const hit = lines.find((l) => key in l);
      if (hit) return hit[key];
      await new Promise((r) => waiters.push(r));
    }
  };
  return { p, next };
}

async function main() {
  const a = args(process.argv.slice(2));
  if (a.mode === 'serve') return serve(a);
  if (a.mode === 'bare') return bare();
  const t0 = Date.now();
  const loadStart = os.loadavg();
  if (a.apiOnly) a.langs = ['gn'];
  const built = await build(a);
  if (a.buildOnly) return process.exit(0);
  if (a.apiOnly) return apiOnly(a, built, loadStart);
  const totalPairs = built.agents.reduce((s, x) => s + x.pairs, 0);
  const totalArtifact = built.agents.reduce((s, x) => s + x.artifactBytes, 0);
  const gn = built.agents.find((x) => x.lang === 'gn');
  const sentences = fs.existsSync(path.join(a.data, 'es-gn', 'dev.es'))
    ? readLines(path.join(a.data, 'es-gn', 'dev.es'))
        .filter((s) => s.trim())
        .slice(0, 300)
    : ['¿Dónde vives?'];

  const inputFile = path.join(CACHE, 'serve-input.json');
  fs.writeFileSync(inputFile, JSON.stringify({ storeDir: built.storeDir, agents: built.agents, sentences }));
  const servingNodeFlags = a.serveFlags ?? PLATFORM_NODE_FLAGS;
  const srv = child(['--serve', '--budget-mb', String(a.budgetMb), '--input', inputFile], servingNodeFlags);
  const port = await srv.next('port');
  const bareSrv = child(['--bare']);
  const barePort = await bareSrv.next('port');
  const points = [];
  for (const c of CONNECTIONS) {
    const engineRun = await load(port, c, a.seconds, sentences);
    const bareRun = await load(barePort, c, a.seconds, sentences);
    points.push({ connections: c, engine: engineRun, bareNode: bareRun, ratioToBare: Math.round((engineRun.reqPerSec / bareRun.reqPerSec) * 10000) / 10000 });
    process.stdout.write(
      `${c} connections: engine ${engineRun.reqPerSec} req/s (p50 ${engineRun.latencyMs.p50} ms, p99 ${engineRun.latencyMs.p99} ms), bare Node ${bareRun.reqPerSec} req/s\n`,
    );
  }
  srv.p.stdin.write('report\n');
  const report = await srv.next('report');
  bareSrv.p.kill();

  const result = {
    benchmark: 'many agents on one box (issue #13)',
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGB: Math.round(os.totalmem() / 1e9),
      node: process.version,
      loadavgAtStart: loadStart.map((x) => Math.round(x * 10) / 10),
      loadavgAtEnd: os.loadavg().map((x) => Math.round(x * 10) / 10),
      note: 'shared 2-core dev machine; other people run jobs: compare the ratios measured side by side',
    },
    servingNodeFlags,
    engineHash: built.hash,
    agents: {
      count: built.agents.length,
      pairs: totalPairs,
      real: built.agents.filter((x) => x.id.startsWith('real-')).map((x) => ({ id: x.id, pairs: x.pairs })),
      synthetic: "copies of the real agents' artifacts under new agent ids, chosen to reach --pairs",
    },
    storage: {
      artifactBytesTotal: totalArtifact,
      artifactBytesPerPair: Math.round(totalArtifact / totalPairs),
      artifactToTextRatio: Math.round((totalArtifact / built.agents.reduce((s, x) => s + x.textBytes, 0)) * 100) / 100,
      gn: gn
        ? {
            pairs: gn.pairs,
            textMB: Math.round(gn.textBytes / 1e4) / 100,
            artifactMB: Math.round(gn.artifactBytes / 1e4) / 100,
            ratioToText: Math.round((gn.artifactBytes / gn.textBytes) * 100) / 100,
            bytesPerPair: Math.round(gn.artifactBytes / gn.pairs),
            parts: require('./artifact-probe.cjs').breakdown(new Uint8Array(fs.readFileSync(gn.file))),
          }
        : null,
      perRealAgent: built.agents
        .filter((x) => x.id.startsWith('real-'))
        .map((x) => ({
          id: x.id,
          pairs: x.pairs,
          textMB: Math.round(x.textBytes / 1e4) / 100,
          artifactMB: Math.round(x.artifactBytes / 1e4) / 100,
          ratioToText: Math.round((x.artifactBytes / x.textBytes) * 100) / 100,
        })),
      note: 'everything stored for an agent: the one artifact (model + index; the embedded retrieval index reads its index part); uploads excluded',
    },
    memory: { budgetMB: a.budgetMb, maxRssMB: report.maxRssMB, agentsAnswering: report.answered, cache: report.cache },
    latencyMs: { coldFirstTranslationAllAgents: report.cold, coldFirstTranslationGn: report.gnCold, warmGn: report.warm },
    http: { path: 'POST /translate → AgentLoader → built-in engine (no gateway, API key or metering)', durationSecondsPerPoint: a.seconds, points },
    wallSeconds: Math.round((Date.now() - t0) / 1000),
  };
  // the API run (--api-only) writes its own section: kept; the earlier runs' main figures are kept as well
  if (fs.existsSync(a.out)) {
    const before = JSON.parse(fs.readFileSync(a.out, 'utf8'));
    result.api = before.api;
    // side-by-side checks written by hand (the artifact format: exact-output-check.cjs --reencode; the cold start)
    for (const k of HAND_WRITTEN) if (before[k] !== undefined) result[k] = before[k];
    const { previousRuns = [], ...last } = before;
    if (last.date && last.storage)
      result.previousRuns = [
        ...previousRuns,
        {
          date: last.date,
          engineHash: last.engineHash,
          machine: last.machine,
          storage: { ...last.storage, gn: last.storage.gn && { ...last.storage.gn, parts: undefined } },
          memory: last.memory,
          latencyMs: last.latencyMs,
          reqPerSec: last.http?.points?.map((x) => ({ connections: x.connections, engine: x.engine.reqPerSec, ratioToBare: x.ratioToBare })),
        },
      ];
  }
  fs.mkdirSync(path.dirname(a.out), { recursive: true });
  fs.writeFileSync(a.out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`\n${table(result)}\nwritten ${path.relative(ROOT, a.out)}\n`);
  process.exit(0);
}

/** Sections of the results written by hand from side-by-side checks (exact-output-check.cjs): kept by a new run. */
const HAND_WRITTEN = ['compactAgents', 'coldStart', 'modelSchema5', 'storedLess', 'derivedDocVectors'];

const round1 = (x) => Math.round(x * 10) / 10;
const machine = (loadStart) => ({
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memGB: Math.round(os.totalmem() / 1e9),
  node: process.version,
  loadavgAtStart: loadStart.map(round1),
  loadavgAtEnd: os.loadavg().map(round1),
  note: 'shared 2-core dev machine; other people run jobs: compare the ratios measured side by side',
});

/**
 * The real request path (platform + API key + metering) at 1/8/32 connections beside a bare Node server and the
 * same agent's engine behind a plain Node handler, in the same run: written under `api.<label>` of the results file
 * (the other sections are kept).
 */
async function apiRun(a, built, sentences) {
  const { apiPoints } = require('./api-load.cjs');
  const gn = built.agents.find((x) => x.lang === 'gn');
  if (!gn) throw new Error('the es-gn train files are needed (--data)');
  const api = await apiPoints({
    artifactFile: gn.file,
    workDir: path.join(CACHE, 'api'),
    sentences,
    seconds: a.seconds,
    connections: CONNECTIONS,
    load,
    build: !a.noBuild,
  });
  const bareSrv = child(['--bare']);
  const barePort = await bareSrv.next('port');
  // the same engine and agent behind a plain Node handler (what the platform's overhead is measured against)
  const inputFile = path.join(CACHE, 'api-engine-only-input.json');
  fs.writeFileSync(inputFile, JSON.stringify({ storeDir: built.storeDir, agents: [gn], sentences }));
  const engineSrv = child(['--serve', '--budget-mb', String(a.budgetMb), '--input', inputFile]);
  const enginePort = await engineSrv.next('port');
  const ratio = (x, y) => Math.round((x / y) * 10000) / 10000;
  for (const p of api.points) {
    const bareRun = await load(barePort, p.connections, a.seconds, sentences);
    p.bareNode = { reqPerSec: bareRun.reqPerSec, latencyMs: bareRun.latencyMs };
    p.ratioToBare = ratio(p.reqPerSec, bareRun.reqPerSec);
    const engineRun = await load(enginePort, p.connections, a.seconds, sentences);
    p.engineOnly = { reqPerSec: engineRun.reqPerSec, latencyMs: engineRun.latencyMs };
    p.ratioToEngineOnly = ratio(p.reqPerSec, engineRun.reqPerSec);
    process.stdout.write(
      `${p.connections} connections: bare Node ${bareRun.reqPerSec} req/s, engine behind plain Node ${engineRun.reqPerSec} req/s (platform ${p.reqPerSec}: ${p.ratioToEngineOnly} of it)\n`,
    );
  }
  bareSrv.p.kill();
  engineSrv.p.kill();
  return api;
}

async function apiOnly(a, built, loadStart) {
  const sentences = readLines(path.join(a.data, 'es-gn', 'dev.es'))
    .filter((s) => s.trim())
    .slice(0, 300);
  const api = await apiRun(a, built, sentences);
  const result = fs.existsSync(a.out) ? JSON.parse(fs.readFileSync(a.out, 'utf8')) : { benchmark: 'many agents on one box (issue #13)' };
  result.api = result.api ?? {};
  result.api.path =
    'POST /api/translate, X-API-Key, stream:false, varied gn dev sentences → built platform (dist/apps/platform/main.js, in-process messaging, Postgres 127.0.0.1) → es-gn agent (26,032 pairs, built-in engine)';
  result.api[a.apiLabel ?? 'current'] = { date: new Date().toISOString(), machine: machine(loadStart), durationSecondsPerPoint: a.seconds, ...api };
  fs.mkdirSync(path.dirname(a.out), { recursive: true });
  fs.writeFileSync(a.out, JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(`\n${apiTable(result.api)}\nwritten ${path.relative(ROOT, a.out)}\n`);
  process.exit(0);
}

function apiTable(api) {
  const labels = Object.keys(api).filter((k) => api[k] && typeof api[k] === 'object' && Array.isArray(api[k].points));
  const rows = [];
  for (const l of labels)
    for (const p of api[l].points)
      rows.push(
        `| ${l} | ${p.connections} | ${p.reqPerSec} | ${p.latencyMs.p50} | ${p.latencyMs.p99} | ${p.cpuMsPerTranslation ?? '–'} | ${p.pgRoundTripsPerTranslation} | ${p.engineOnly?.reqPerSec ?? '–'} | ${p.ratioToEngineOnly ?? '–'} | ${p.bareNode?.reqPerSec ?? '–'} | ${p.ratioToBare ?? '–'} |`,
      );
  return [
    '| run | connections | req/s | p50 ms | p99 ms | platform CPU ms / translation | Postgres round trips / translation | engine behind plain Node req/s | ratio to it | bare Node req/s | ratio to bare |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function table(r) {
  const rows = [
    ['agents / pairs', `${r.agents.count} / ${r.agents.pairs.toLocaleString('en')}`],
    ['stored per pair (all agents)', `${r.storage.artifactBytesPerPair} B (${r.storage.artifactToTextRatio}× the pairs' UTF-8 text)`],
    ['gn agent (26k pairs) stored', r.storage.gn ? `${r.storage.gn.artifactMB} MB for ${r.storage.gn.textMB} MB of text (${r.storage.gn.ratioToText}×)` : '–'],
    [
      'max RSS serving every agent',
      `${r.memory.maxRssMB} MB (LRU budget ${r.memory.budgetMB} MB, ${r.memory.agentsAnswering}/${r.agents.count} agents answered)`,
    ],
    ['cold first translation, p50 (all agents / gn)', `${r.latencyMs.coldFirstTranslationAllAgents.p50} ms / ${r.latencyMs.coldFirstTranslationGn.p50} ms`],
    ['warm translation gn, p50 / p99', `${r.latencyMs.warmGn.p50} ms / ${r.latencyMs.warmGn.p99} ms`],
    ...r.http.points.map((p) => [
      `HTTP ${p.connections} conn: req/s (p50 / p99)`,
      `${p.engine.reqPerSec} (${p.engine.latencyMs.p50} / ${p.engine.latencyMs.p99} ms); bare Node ${p.bareNode.reqPerSec}; ratio ${p.ratioToBare}`,
    ]),
  ];
  return ['| measure | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
