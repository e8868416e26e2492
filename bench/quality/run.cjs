#!/usr/bin/env node
/*
 * Quality benchmark of the built-in engine (@gaia/engine).
 *
 *   npm run bench:quality -- --data ../shared/data/americasnlp2021 [--out bench/results/quality.json]
 *                            [--limit 200] [--langs aym,gn] [--directions es->xx,xx->es]
 *
 * Reads any folder of the layout es-<code>/{train.es,train.<code>,dev.es,dev.<code>}, builds one agent per
 * language from train.* only, translates dev in both directions and writes a JSON + markdown table. The agent's core
 * memory is the one the translation service reads: written to its artifact and read back (`--as-learned`: as trained).
 * Beside chrF (beta 2 and beta 1) every row carries the measures of measures.cjs: the specificity margin
 * (chrF minus chrF against shuffled references), the generic floor (frequent-words output) and, into
 * Spanish, the share of source tokens in the Spanish vocabulary that the output keeps.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly
const engine = require('../../libs/engine/src/index.ts');
const measures = require('./measures.cjs');
const { pairsTextBytes, STORED_TEXT_RATIO_MAX: STORED_BOUND, withinStoredBound } = require('../../libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts');

function parseArgs(argv) {
  const a = { data: '../shared/data/americasnlp2021', out: 'bench/results/quality.json', limit: 0, langs: null, directions: ['es->xx', 'xx->es'], speed: true };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === '--data') {
      a.data = v;
      i++;
    } else if (k === '--out') {
      a.out = v;
      i++;
    } else if (k === '--limit') {
      a.limit = Number(v);
      i++;
    } else if (k === '--langs') {
      a.langs = v.split(',');
      i++;
    } else if (k === '--directions') {
      a.directions = v.split(',');
      i++;
    } else if (k === '--no-speed') a.speed = false;
    else if (k === '--as-learned') a.asLearned = true;
    else if (k === '--help') {
      console.log('usage: run.cjs --data <dir> [--out file.json] [--limit N] [--langs a,b] [--directions es->xx,xx->es] [--no-speed] [--as-learned]');
      process.exit(0);
    }
  }
  return a;
}

function readLines(f) {
  const t = fs.readFileSync(f, 'utf8').replace(/^\uFEFF/, '');
  const lines = t.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function pct(arr, p) {
  if (!arr.length) return 0;
  const s = [...arr].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

// AmericasNLP 2021 official baseline on dev (es->xx), from the data README; shown for reference only
const BASELINE = { aym: 0.1885, cni: 0.1038, gn: 0.2204, nah: 0.1823, oto: 0.0517, quy: 0.3302, shp: 0.1387, tar: 0.0458 };

let peakRss = 0;
const LOAD0 = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
function sampleMem() {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = path.resolve(args.data);
  if (!fs.existsSync(dataDir)) {
    console.error(`data folder not found: ${dataDir}`);
    process.exit(2);
  }
  const codes = fs
    .readdirSync(dataDir)
    .filter((d) => /^es-/.test(d) && fs.statSync(path.join(dataDir, d)).isDirectory())
    .map((d) => d.slice(3))
    .filter((c) => !args.langs || args.langs.includes(c))
    .sort();
  const rows = [];
  const speed = {};
  const storedBytes = {};
  for (const code of codes) {
    const dir = path.join(dataDir, `es-${code}`);
    const f = (n) => path.join(dir, n);
    if (![`train.es`, `train.${code}`, `dev.es`, `dev.${code}`].every((n) => fs.existsSync(f(n)))) {
      console.error(`skipping ${code}: missing files`);
      continue;
    }
    const trS = readLines(f('train.es'));
    const trT = readLines(f(`train.${code}`));
    const n = Math.min(trS.length, trT.length);
    const pairs = [];
    for (let i = 0; i < n; i++) pairs.push({ id: `${code}-${i}`, source: trS[i], target: trT[i] });
    let devS = readLines(f('dev.es'));
    let devT = readLines(f(`dev.${code}`));
    if (args.limit > 0) {
      devS = devS.slice(0, args.limit);
      devT = devT.slice(0, args.limit);
    }
    if (global.gc) global.gc();
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const learned = engine.trainAgentModel(pairs);
    const trainMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const cu = process.cpuUsage(c0);
    const trainCpuMs = (cu.user + cu.system) / 1000;
    sampleMem();
    const t1 = process.hrtime.bigint();
    const index = new engine.HybridIndex();
    index.add(pairs);
    index.search('warm up', 1);
    const indexMs = Number(process.hrtime.bigint() - t1) / 1e6;
    // the model as the translation service reads it: written to its artifact within the storage bound, as a build
    // stores it (character LMs cut to the order that fits), and read back (quantized phrase scores)
    const textBytes = pairsTextBytes(pairs);
    const stored = withinStoredBound({ model: engine.serializeModel(learned), index: index.serialize() }, textBytes);
    const storedModel = engine.deserializeModel(stored.model);
    const model = args.asLearned ? learned : storedModel;
    storedBytes[code] = {
      to_text: Number(((stored.model.byteLength + stored.index.byteLength) / textBytes).toFixed(3)),
      char_lm_order: storedModel.charLms?.[0].order ?? 0,
    };
    sampleMem();
    const tr = new engine.Translator(model, index);
    console.error(`[${code}] ${pairs.length} pairs: core memory ${(trainMs / 1000).toFixed(1)} s, index ${(indexMs / 1000).toFixed(1)} s`);
    for (const direction of args.directions) {
      const fwd = direction === 'es->xx';
      const inputs = fwd ? devS : devT;
      const refs = fwd ? devT : devS;
      const hyps = [];
      const lat = [];
      const cpuLat = [];
      for (const s of inputs) {
        const a = process.hrtime.bigint();
        const ca = process.cpuUsage();
        const r = tr.translateText(s, { direction: fwd ? 'forward' : 'reverse' });
        lat.push(Number(process.hrtime.bigint() - a) / 1e6);
        const cb = process.cpuUsage(ca);
        cpuLat.push((cb.user + cb.system) / 1000);
        hyps.push(r.translation.replace(/[\r\n]+/g, ' '));
      }
      sampleMem();
      const chars = (xs) => xs.reduce((a, s) => a + s.replace(/\s+/g, '').length, 0);
      const spec = measures.specificity(engine, hyps, refs);
      const floor = measures.genericFloor(engine, fwd ? trS : trT, fwd ? trT : trS, inputs, refs);
      const kept = fwd ? null : measures.keptShare(engine, trS, inputs, hyps);
      const numbersKept = measures.numbersKept(engine, inputs, hyps);
      const namesKept = measures.namesKept(engine, inputs, refs, hyps);
      const row = {
        lang: code,
        direction,
        sentences: inputs.length,
        chrf: Number(spec.chrf.toFixed(4)),
        chrf_beta1: Number(engine.corpusChrF(hyps, refs, 1).toFixed(4)),
        chrf_shuffled: Number(spec.shuffled.toFixed(4)),
        margin: Number(spec.margin.toFixed(4)),
        floor_chrf: Number(floor.toFixed(4)),
        in_vocab_share: kept ? Number(kept.in_vocab_share.toFixed(4)) : null,
        kept_share: kept ? Number(kept.kept_share.toFixed(4)) : null,
        numbers_kept: numbersKept === null ? null : Number(numbersKept.toFixed(4)),
        names_kept: namesKept === null ? null : Number(namesKept.toFixed(4)),
        bleu: Number((engine.corpusBleu(hyps, refs) * 100).toFixed(2)),
        length_ratio: Number((chars(hyps) / Math.max(1, chars(refs))).toFixed(3)),
        baseline_chrf: fwd && BASELINE[code] !== undefined ? BASELINE[code] : null,
        train_pairs: pairs.length,
        train_seconds: Number((trainMs / 1000).toFixed(2)),
        train_cpu_seconds: Number((trainCpuMs / 1000).toFixed(2)),
        index_seconds: Number((indexMs / 1000).toFixed(2)),
        latency_ms_p50: Number(pct(lat, 50).toFixed(1)),
        latency_ms_p99: Number(pct(lat, 99).toFixed(1)),
        latency_cpu_ms_p50: Number(pct(cpuLat, 50).toFixed(1)),
        peak_rss_mb: Math.round(peakRss / 1048576),
      };
      rows.push(row);
      console.error(
        `[${code}] ${direction}: chrF ${row.chrf} β1 ${row.chrf_beta1} margin ${row.margin} floor ${row.floor_chrf} kept ${row.kept_share} numbers ${row.numbers_kept} names ${row.names_kept} BLEU ${row.bleu} ratio ${row.length_ratio} p50 ${row.latency_ms_p50} ms`,
      );
    }
    if (args.speed && (code === 'gn' || codes.length === 1)) {
      // retrieval latency and 50-word translation latency on the largest agent
      const qs = devS.slice(0, 200);
      const rl = [];
      for (const q of qs) {
        const a = process.hrtime.bigint();
        index.search(q, 8);
        rl.push(Number(process.hrtime.bigint() - a) / 1e6);
      }
      const words = devS.join(' ').split(/\s+/);
      const tl = [];
      const tlc = [];
      for (let i = 0; i + 50 <= words.length && tl.length < 40; i += 50) {
        const s = words.slice(i, i + 50).join(' ');
        const a = process.hrtime.bigint();
        const ca = process.cpuUsage();
        tr.translateText(s, { direction: 'forward' });
        tl.push(Number(process.hrtime.bigint() - a) / 1e6);
        const cb = process.cpuUsage(ca);
        tlc.push((cb.user + cb.system) / 1000);
      }
      const rlc = [];
      for (const q of qs) {
        const ca = process.cpuUsage();
        index.search(q, 8);
        const cb = process.cpuUsage(ca);
        rlc.push((cb.user + cb.system) / 1000);
      }
      const ser = index.serialize();
      const a = process.hrtime.bigint();
      engine.HybridIndex.deserialize(ser);
      const loadMs = Number(process.hrtime.bigint() - a) / 1e6;
      speed[code] = {
        pairs: pairs.length,
        core_memory_seconds: Number((trainMs / 1000).toFixed(2)),
        core_memory_cpu_seconds: Number((trainCpuMs / 1000).toFixed(2)),
        index_build_seconds: Number((indexMs / 1000).toFixed(2)),
        retrieval_ms_p50: Number(pct(rl, 50).toFixed(2)),
        retrieval_ms_p99: Number(pct(rl, 99).toFixed(2)),
        translate_50_words_ms_p50: Number(pct(tl, 50).toFixed(1)),
        translate_50_words_ms_p99: Number(pct(tl, 99).toFixed(1)),
        translate_50_words_cpu_ms_p50: Number(pct(tlc, 50).toFixed(1)),
        retrieval_cpu_ms_p50: Number(pct(rlc, 50).toFixed(2)),
        index_bytes: ser.length,
        index_load_ms: Number(loadMs.toFixed(1)),
      };
      console.error(`[${code}] speed ${JSON.stringify(speed[code])}`);
    }
  }
  const avg = (dirn, key = 'chrf') => {
    const r = rows.filter((x) => x.direction === dirn);
    return r.length ? Number((r.reduce((a, b) => a + b[key], 0) / r.length).toFixed(4)) : null;
  };
  const averages = (key) => ({ 'es->xx': avg('es->xx', key), 'xx->es': avg('xx->es', key) });
  const machine = {
    cpu: (os.cpus()[0] || {}).model,
    cores: os.cpus().length,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    total_mem_gb: Math.round(os.totalmem() / 1073741824),
    loadavg_start: LOAD0,
  };
  const result = {
    generated_at: new Date().toISOString(),
    data: args.data,
    limit: args.limit || null,
    machine,
    average_chrf: averages('chrf'),
    average_chrf_beta1: averages('chrf_beta1'),
    average_margin: averages('margin'),
    average_floor_chrf: averages('floor_chrf'),
    shuffle_seeds: engine.SHUFFLE_SEEDS,
    peak_rss_mb: Math.round(Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 1048576),
    speed,
    stored: storedBytes,
    rows,
  };
  const out = path.resolve(args.out);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  const md = [];
  md.push(`# Engine quality benchmark`);
  md.push('');
  md.push(`Data: \`${args.data}\`${args.limit ? ` (first ${args.limit} dev sentences)` : ''}; generated ${result.generated_at}.`);
  md.push(
    `Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.total_mem_gb} GB RAM, load average at start ${machine.loadavg_start}.`,
  );
  md.push("Wall-clock times are inflated when the machine is shared; CPU times are the process's own.");
  md.push(
    `chrF is sacreBLEU's (β=2) with β=1 beside it; **margin** = chrF − mean chrF against the references shuffled with seeds ${engine.SHUFFLE_SEEDS.join(', ')}; **floor** = chrF of the train side's most frequent words cut to the expected length; **kept** (xx→es) = share of source tokens found in the Spanish train vocabulary that the output keeps (in-vocab = their share of all source tokens); **numbers** = share of the source's tokens written with digits that the output writes (the references themselves write some as words, tar most); **names** = share of the source's words capitalized inside their sentence that the reference writes as they are (names) which the output writes too.`,
  );
  md.push('');
  md.push(
    '| lang | direction | chrF | chrF β=1 | floor | margin | 2021 baseline | BLEU | len ratio | in-vocab / kept | numbers | names | train pairs | train s (wall / cpu) | p50 ms | p50 CPU ms | p99 ms | peak RSS MB |',
  );
  md.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    md.push(
      `| ${r.lang} | ${r.direction} | ${r.chrf.toFixed(4)} | ${r.chrf_beta1.toFixed(4)} | ${r.floor_chrf.toFixed(4)} | ${r.margin.toFixed(4)} | ${r.direction === 'es->xx' && BASELINE[r.lang] !== undefined ? BASELINE[r.lang].toFixed(4) : ''} | ${r.bleu.toFixed(2)} | ${r.length_ratio.toFixed(3)} | ${r.kept_share === null ? '' : `${r.in_vocab_share.toFixed(3)} / ${r.kept_share.toFixed(3)}`} | ${r.numbers_kept === null ? '' : r.numbers_kept.toFixed(3)} | ${r.names_kept === null ? '' : r.names_kept.toFixed(3)} | ${r.train_pairs} | ${r.train_seconds} / ${r.train_cpu_seconds} | ${r.latency_ms_p50} | ${r.latency_cpu_ms_p50} | ${r.latency_ms_p99} | ${r.peak_rss_mb} |`,
    );
  for (const d of ['es->xx', 'xx->es'])
    md.push(
      `| **average** | ${d} | ${avg(d) ?? '-'} | ${avg(d, 'chrf_beta1') ?? '-'} | ${avg(d, 'floor_chrf') ?? '-'} | ${avg(d, 'margin') ?? '-'} | | | | | | | | | | | | |`,
    );
  md.push('');
  for (const [k, v] of Object.entries(speed)) {
    md.push(
      `Speed (${k}, ${v.pairs} pairs): core memory ${v.core_memory_seconds} s wall (${v.core_memory_cpu_seconds} s CPU), 50-word translation CPU p50 ${v.translate_50_words_cpu_ms_p50} ms, retrieval CPU p50 ${v.retrieval_cpu_ms_p50} ms; index build ${v.index_build_seconds} s, retrieval p50 ${v.retrieval_ms_p50} ms (p99 ${v.retrieval_ms_p99}), 50-word translation p50 ${v.translate_50_words_ms_p50} ms (p99 ${v.translate_50_words_ms_p99}), index ${(v.index_bytes / 1048576).toFixed(1)} MB loads in ${v.index_load_ms} ms.`,
    );
  }
  md.push(
    `Stored (model + index, per byte of the pairs' text; within ${STORED_BOUND}×, the character LMs cut to the order that fits): ${Object.entries(storedBytes)
      .map(([k, v]) => `${k} ${v.to_text}× (char LM order ${v.char_lm_order})`)
      .join(', ')}.`,
  );
  fs.writeFileSync(out.replace(/\.json$/, '') + '.md', md.join('\n') + '\n');
  console.log(md.join('\n'));
}

main();
