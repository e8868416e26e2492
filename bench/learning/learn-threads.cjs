#!/usr/bin/env node
/*
 * Learning threads benchmark: small agents learned one after another through the built learning worker
 * (learn-in-worker.ts), with the threads kept from build to build (LEARN_WORKERS_IDLE) and with a thread per part of
 * each build (idle 0, as before threads were kept), alternating build by build in one process.
 *
 *   node tools/build.mjs --backend && node bench/learning/learn-threads.cjs [--builds 40] [--out bench/results/learn-threads.json]
 *
 * Per build: wall time until the version is learned and its quality report measured, and the process' CPU time
 * (all threads). Synthetic corpora of 40–59 pairs (libs/testing syntheticCorpus, as the multi-process load test uploads).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

require('../register-ts.cjs');
const { learnAgentOffThread, useLearnWorker, LEARN_WORKERS_IDLE } = require('../../libs/retrieval/data-access/src/lib/learn-in-worker.ts');
const { syntheticCorpus } = require('../../libs/testing/src/synthetic-corpus.ts');
const { benchMachine } = require('../machine.cjs');

/** Builds per block of one mode. */
const BLOCK = 10;
const WORKER = path.join(__dirname, '../../dist/out/libs/retrieval/data-access/src/lib/learn.worker.js');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function build(seed) {
  const pairs = syntheticCorpus(40 + (seed % 20), seed).map((p, i) => JSON.stringify({ id: String(i), source: p.source, target: p.target }));
  const pairsJsonl = new TextEncoder().encode(pairs.join('\n'));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { measureQuality } = await learnAgentOffThread({ pairsJsonl, srcLang: 'es', tgtLang: 'qx' }, () => undefined);
  await measureQuality();
  const cpu = process.cpuUsage(cpu0);
  return { wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

(async () => {
  if (!fs.existsSync(WORKER)) throw new Error(`no built worker at ${WORKER}: run node tools/build.mjs --backend first`);
  const builds = Number(arg('--builds', 40));
  const out = arg('--out', path.join(__dirname, '../results/learn-threads.json'));
  const modes = [
    { name: 'kept', idle: LEARN_WORKERS_IDLE },
    { name: 'thread-per-part', idle: 0 },
  ];
  const times = Object.fromEntries(modes.map((m) => [m.name, { wallMs: [], cpuMs: [] }]));
  // blocks of BLOCK builds, the modes alternating block by block (ABBA...), each block after one uncounted build
  // (the kept threads start there); the same corpora for both modes
  for (let block = 0; block * BLOCK < builds; block++)
    for (const m of block % 2 ? [...modes].reverse() : modes) {
      useLearnWorker(WORKER, m.idle);
      await build(0);
      for (let b = block * BLOCK + 1; b <= Math.min(builds, (block + 1) * BLOCK); b++) {
        const r = await build(b);
        times[m.name].wallMs.push(r.wallMs);
        times[m.name].cpuMs.push(r.cpuMs);
      }
    }
  useLearnWorker(null);
  const summary = Object.fromEntries(
    Object.entries(times).map(([k, v]) => [k, { wallMsP50: +median(v.wallMs).toFixed(1), cpuMsP50: +median(v.cpuMs).toFixed(1), builds: v.wallMs.length }]),
  );
  const result = {
    benchmark: 'learning threads: small agents (40-59 synthetic pairs), threads kept vs a thread per part',
    machine: benchMachine(),
    date: new Date().toISOString(),
    summary,
    ratios: {
      wallP50: +(summary.kept.wallMsP50 / summary['thread-per-part'].wallMsP50).toFixed(3),
      cpuP50: +(summary.kept.cpuMsP50 / summary['thread-per-part'].cpuMsP50).toFixed(3),
    },
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.summary), JSON.stringify(result.ratios));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
