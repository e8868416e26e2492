#!/usr/bin/env node
/**
 * Same answers after an engine speed change (issue #13): the engine of <rev> (or, with --files, the working tree's
 * libs/engine with only those files taken from <rev>) and the working tree's engine each load the same stored
 * artifacts and translate the same dev sentences in both directions; every answer (translation, confidence,
 * candidates, examples, spans) must be identical.
 *
 *   node bench/scale/exact-output-check.cjs --base <rev> [--files a.ts,b.ts] --agent gn=<artifact.bin>[,shp=<bin>...]
 *        [--n gn=300,shp=100] [--data ../shared/data/americasnlp2021] [--cold 5]
 *
 * --cold N: first, per agent, N cold loads with each engine, alternating (read the file, decode the artifact, load
 * model and index, first translation of a dev sentence); median milliseconds of load and first translation.
 *
 * --reencode: the working tree's engine reads the artifact as it writes it itself (read with its own codec, written
 * again: a new artifact format), the engine of <rev> reads it as stored; stored bytes of both are reported.
 *
 * Translations alternate between the two engines sentence by sentence, so both see the same machine load; the CPU
 * time of each is reported (p50 / mean ms per sentence and the ratio after / before) next to the identity count.
 * Prints one line per agent and one JSON line; exits 1 when any answer differs.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { readDevLines } = require('./dev-data.cjs');
const { execFileSync } = require('node:child_process');
require('../register-ts.cjs');

const ROOT = path.resolve(__dirname, '../..');
const DEFAULT_SENTENCES = 100;

function main() {
  const argv = process.argv.slice(2);
  const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
  const base = opt('--base', 'HEAD');
  const files = opt('--files', null);
  const data = path.resolve(opt('--data', path.join(ROOT, '../shared/data/americasnlp2021')));
  const agents = opt('--agent', '')
    .split(',')
    .filter(Boolean)
    .map((x) => x.split('='));
  const counts = Object.fromEntries(
    opt('--n', '')
      .split(',')
      .filter(Boolean)
      .map((x) => x.split('=')),
  );
  const rev = execFileSync('git', ['rev-parse', '--short', base], { cwd: ROOT }).toString().trim();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gaia-engine-exact-'));
  if (files) {
    fs.cpSync(path.join(ROOT, 'libs/engine'), path.join(tmp, 'libs/engine'), { recursive: true });
    for (const f of files.split(',')) fs.writeFileSync(path.join(tmp, f), execFileSync('git', ['show', `${rev}:${f}`], { cwd: ROOT }));
  } else execFileSync('sh', ['-c', `git archive ${rev} libs/engine | tar -x -C ${tmp}`], { cwd: ROOT });
  const engines = { before: require(path.join(tmp, 'libs/engine/src/index.ts')), after: require(path.join(ROOT, 'libs/engine/src/index.ts')) };
  const { decodeAgentArtifacts } = require(path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'));
  const report = { base: rev, files: files ? files.split(',') : 'libs/engine', cold: {}, agents: {} };
  let failed = false;
  const coldRuns = Number(opt('--cold', 0));
  const { encodeAgentArtifacts } = require(path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'));
  /** The file each engine reads: as stored, or (--reencode) re-written by the working tree's engine. */
  const readFrom = {};
  for (const [lang, file] of agents) {
    readFrom[lang] = { before: file, after: file };
    if (!argv.includes('--reencode')) continue;
    const e = engines.after;
    const old = decodeAgentArtifacts(new Uint8Array(fs.readFileSync(file)));
    const out = path.join(tmp, `${lang}-reencoded.bin`);
    fs.writeFileSync(
      out,
      encodeAgentArtifacts({ model: e.serializeModel(e.deserializeModel(old.model.slice())), index: e.HybridIndex.deserialize(old.index.slice()).serialize() }),
    );
    readFrom[lang].after = out;
    report.bytes = { ...report.bytes, [lang]: { before: fs.statSync(file).size, after: fs.statSync(out).size } };
    process.stdout.write(`${lang}: stored ${fs.statSync(file).size} bytes, re-encoded ${fs.statSync(out).size} bytes\n`);
  }
  const median = (xs) => Number([...xs].sort((p, q) => p - q)[Math.floor((xs.length - 1) / 2)].toFixed(1));
  for (const [lang] of agents) {
    if (!coldRuns) break;
    const first = fs
      .readFileSync(path.join(data, `es-${lang}`, 'dev.es'), 'utf8')
      .split(/\r?\n/)
      .filter(Boolean);
    const ms = { before: { load: [], first: [], total: [], cpu: [] }, after: { load: [], first: [], total: [], cpu: [] } };
    for (let i = 0; i <= coldRuns; i++)
      for (const k of i % 2 ? ['after', 'before'] : ['before', 'after']) {
        const e = engines[k];
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const art = decodeAgentArtifacts(new Uint8Array(fs.readFileSync(readFrom[lang][k])));
        const t = new e.Translator(e.deserializeModel(art.model), e.HybridIndex.deserialize(art.index.slice()));
        const t1 = performance.now();
        t.translateText(first[i % first.length]);
        const t2 = performance.now();
        const c = process.cpuUsage(c0);
        if (i === 0) continue; // the first run compiles the engine's code
        ms[k].cpu.push((c.user + c.system) / 1000);
        ms[k].load.push(t1 - t0);
        ms[k].first.push(t2 - t1);
        ms[k].total.push(t2 - t0);
      }
    const cold = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([p, xs]) => [p, median(xs)]))]));
    cold.totalRatio = Number((cold.after.total / cold.before.total).toFixed(3));
    cold.cpuRatio = Number((cold.after.cpu / cold.before.cpu).toFixed(3));
    report.cold = { ...report.cold, [lang]: cold };
    process.stdout.write(
      `${lang} cold (median of ${coldRuns}, ms): before ${JSON.stringify(cold.before)}, after ${JSON.stringify(cold.after)}, total ratio ${cold.totalRatio}\n`,
    );
  }
  for (const [lang] of agents) {
    const n = Number(counts[lang] ?? DEFAULT_SENTENCES);
    if (!n) continue;
    const tr = {};
    for (const [k, e] of Object.entries(engines)) {
      const art = decodeAgentArtifacts(new Uint8Array(fs.readFileSync(readFrom[lang][k])));
      tr[k] = new e.Translator(e.deserializeModel(art.model), e.HybridIndex.deserialize(art.index.slice()));
    }
    const read = (ext) => readDevLines(data, lang, ext, n);
    let same = 0;
    let total = 0;
    const diffs = [];
    const cpu = { before: [], after: [] };
    const timed = (k, t, direction) => {
      const c0 = process.cpuUsage();
      const out = tr[k].translateText(t, { direction });
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / 1000);
      return JSON.stringify(out);
    };
    for (const [direction, texts] of [
      ['forward', read('es')],
      ['reverse', read(lang)],
    ])
      for (const t of texts) {
        const first = total % 2 ? 'after' : 'before';
        const x = timed(first, t, direction);
        const y = timed(first === 'after' ? 'before' : 'after', t, direction);
        const [a, b] = first === 'before' ? [x, y] : [y, x];
        total++;
        if (a === b) same++;
        else if (diffs.length < 3) diffs.push({ direction, text: t, before: a.slice(0, 300), after: b.slice(0, 300) });
      }
    const stat = (xs) => {
      const s = [...xs].sort((p, q) => p - q);
      return { p50: Number(s[Math.floor(s.length / 2)].toFixed(2)), mean: Number((xs.reduce((p, q) => p + q, 0) / xs.length).toFixed(2)) };
    };
    const time = { before: stat(cpu.before), after: stat(cpu.after) };
    time.p50Ratio = Number((time.after.p50 / time.before.p50).toFixed(3));
    time.meanRatio = Number((time.after.mean / time.before.mean).toFixed(3));
    report.agents[lang] = { same, total, cpuMs: time, diffs };
    if (same !== total) failed = true;
    process.stdout.write(
      `${lang}: ${same}/${total} identical; CPU ms per sentence before p50 ${time.before.p50} mean ${time.before.mean}, after p50 ${time.after.p50} mean ${time.after.mean} (ratio p50 ${time.p50Ratio}, mean ${time.meanRatio})\n`,
    );
  }
  report.machine = {
    cores: os.cpus().length,
    node: process.version,
    loadavg: os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' '),
  };
  process.stdout.write(JSON.stringify(report) + '\n');
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

main();
