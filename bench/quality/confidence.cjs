#!/usr/bin/env node
/*
 * Does the engine's confidence order its answers by quality on unseen text?
 *
 *   node bench/quality/confidence.cjs --data ../shared/data/americasnlp2021 [--limit 200] [--langs gn,aym]
 *        [--directions es->xx,xx->es] [--out bench/results/confidence.json] [--cache /tmp/gaia-confidence-cache]
 *        [--compare previous.json] [--dump features.jsonl] [--calibrate 200]
 *
 * Builds one agent per language from train.* only (as run.cjs does), translates the first --limit dev sentences in
 * each direction and reports, per language and direction, Spearman(raw confidence, sentence chrF) and the corpus
 * chrF of the most and least confident quartiles. Also the corpus chrF of the subset and a hash of the
 * translations, so that a change meant to touch only the confidence can be checked to leave the answers identical
 * (--compare: every row's chrF within 0.001 of the previous run and the same hash). --cache keeps the built models
 * and indexes (serialized as the platform stores them) so that reruns skip the build. --dump writes the per-sentence
 * confidence features with the sentence chrF (numbers only, no text) for choosing the confidence weights.
 * --calibrate N does what a build does: holds out N train pairs (a fixed stride), learns an agent from the rest,
 * fits the isotonic calibration of each direction on the held-out answers and reports the held-out Spearman beside
 * the dev one, and the calibrated confidence on dev (Spearman, quartiles, mean confidence against mean sentence chrF).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const crypto = require('node:crypto');

require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly
const engine = require('../../libs/engine/src/index.ts');

/** Answers compared between runs: chrF rows may differ by at most this much. */
const COMPARE_TOLERANCE = 0.001;
const DEFAULT_LIMIT = 200;

function parseArgs(argv) {
  const a = {
    data: '../shared/data/americasnlp2021',
    out: 'bench/results/confidence.json',
    limit: DEFAULT_LIMIT,
    langs: null,
    directions: ['es->xx', 'xx->es'],
    cache: null,
    compare: null,
    dump: null,
    calibrate: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === '--help') {
      console.log(
        'usage: confidence.cjs --data <dir> [--limit N] [--langs a,b] [--directions es->xx,xx->es] [--out f.json] [--cache dir] [--compare prev.json] [--dump f.jsonl]',
      );
      process.exit(0);
    }
    if (!k.startsWith('--') || v === undefined) continue;
    const key = k.slice(2);
    if (key === 'langs' || key === 'directions') a[key] = v.split(',');
    else if (key === 'limit' || key === 'calibrate') a[key] = Number(v);
    else if (key in a) a[key] = v;
    i++;
  }
  return a;
}

function readLines(f) {
  const lines = fs
    .readFileSync(f, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Ranks with ties averaged (1-based). */
function ranks(xs) {
  const idx = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b]);
  const r = new Array(xs.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && xs[idx[j + 1]] === xs[idx[i]]) j++;
    for (let t = i; t <= j; t++) r[idx[t]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

function spearman(xs, ys) {
  const rx = ranks(xs);
  const ry = ranks(ys);
  const n = xs.length;
  const mx = rx.reduce((s, v) => s + v, 0) / n;
  const my = ry.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) ** 2;
    syy += (ry[i] - my) ** 2;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** Corpus chrF of the most and least confident quarters (stable order: ties keep the input order). */
function quartiles(conf, hyps, refs) {
  const order = conf.map((_, i) => i).sort((a, b) => conf[b] - conf[a] || a - b);
  const q = Math.max(1, Math.floor(order.length / 4));
  const pick = (ids) =>
    engine.corpusChrF(
      ids.map((i) => hyps[i]),
      ids.map((i) => refs[i]),
    );
  return { top: pick(order.slice(0, q)), bottom: pick(order.slice(order.length - q)) };
}

/** The build's calibration, in small: `n` train pairs held out by a fixed stride, an agent learned from the rest. */
function heldOutCalibration(code, pairs, n, cacheDir, directions) {
  const stride = Math.max(1, Math.floor(pairs.length / n));
  const heldOut = pairs.filter((_, i) => i % stride === 0).slice(0, n);
  const held = new Set(heldOut.map((p) => p.source.trim()));
  const { model, index } = loadAgent(
    `${code}.holdout${n}`,
    pairs.filter((p) => !held.has(p.source.trim())),
    cacheDir,
  );
  const tr = new engine.Translator(model, index);
  const out = {};
  for (const direction of directions) {
    const fwd = direction === 'es->xx';
    const points = heldOut.map((p) => {
      const r = tr.translateText(fwd ? p.source : p.target, { direction: fwd ? 'forward' : 'reverse' });
      return { raw: r.rawConfidence, chrf: engine.sentenceChrF(r.translation, fwd ? p.target : p.source) };
    });
    out[direction] = {
      calibration: engine.fitConfidenceCalibration(points),
      spearman: spearman(
        points.map((p) => p.raw),
        points.map((p) => p.chrf),
      ),
    };
  }
  return out;
}

function loadAgent(code, pairs, cacheDir) {
  const mf = cacheDir && path.join(cacheDir, `${code}.model`);
  const xf = cacheDir && path.join(cacheDir, `${code}.index`);
  if (cacheDir && fs.existsSync(mf) && fs.existsSync(xf)) {
    return {
      model: engine.deserializeModel(new Uint8Array(fs.readFileSync(mf))),
      index: engine.HybridIndex.deserialize(new Uint8Array(fs.readFileSync(xf))),
      cached: true,
    };
  }
  const built = engine.trainAgentModel(pairs);
  const index = new engine.HybridIndex();
  index.add(pairs);
  if (!cacheDir) return { model: built, index, cached: false };
  // the stored form, as the platform loads it
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(mf, engine.serializeModel(built));
  fs.writeFileSync(xf, index.serialize());
  return {
    model: engine.deserializeModel(new Uint8Array(fs.readFileSync(mf))),
    index: engine.HybridIndex.deserialize(new Uint8Array(fs.readFileSync(xf))),
    cached: false,
  };
}

/** Per-sentence numbers for choosing the confidence weights (no text). */
function featureRow(tr, text, dir, r) {
  const best = r.candidates.find((c) => r.translation === c.text.replace(/\s*\n\s*/g, ' ')) ?? r.candidates[0];
  const f = best ? best.features : {};
  const nearest = r.candidates.filter((c) => c.features.overlap !== undefined).map((c) => c.features.overlap);
  const texts = r.candidates.map((c) => c.text);
  let agree = 0;
  let pairsN = 0;
  for (let i = 0; i < texts.length; i++)
    for (let j = 0; j < texts.length; j++)
      if (i !== j) {
        agree += engine.sentenceChrF(texts[i], texts[j]);
        pairsN++;
      }
  const words = engine.tokenize(text).filter(engine.isWordToken);
  return {
    raw: r.rawConfidence,
    mbr: best ? best.mbr : 0,
    coverage: f.coverage ?? 0,
    untranslated: tr.unknownWords.untranslatedSpans(text, dir).share,
    agreement: pairsN ? agree / pairsN : 1,
    fuzzy: nearest.length ? Math.max(...nearest) : 0,
    lm: f.lm ?? 0,
    lexF: f.lexF ?? 0,
    lexR: f.lexR ?? 0,
    length: f.length ?? 0,
    oov: f.oov ?? 0,
    words: words.length,
    candidates: texts.length,
    strategy: best ? best.strategy : 'none',
  };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = path.resolve(args.data);
  const codes = fs
    .readdirSync(dataDir)
    .filter((d) => /^es-/.test(d) && fs.statSync(path.join(dataDir, d)).isDirectory())
    .map((d) => d.slice(3))
    .filter((c) => !args.langs || args.langs.includes(c))
    .sort();
  const dump = args.dump ? fs.openSync(args.dump, 'w') : null;
  const rows = [];
  for (const code of codes) {
    const f = (n) => path.join(dataDir, `es-${code}`, n);
    const trS = readLines(f('train.es'));
    const trT = readLines(f(`train.${code}`));
    const pairs = trS.slice(0, Math.min(trS.length, trT.length)).map((s, i) => ({ id: `${code}-${i}`, source: s, target: trT[i] }));
    const devS = readLines(f('dev.es')).slice(0, args.limit);
    const devT = readLines(f(`dev.${code}`)).slice(0, args.limit);
    const t0 = Date.now();
    const { model, index, cached } = loadAgent(code, pairs, args.cache);
    const tr = new engine.Translator(model, index);
    console.error(`[${code}] ${pairs.length} pairs ${cached ? 'loaded' : 'built'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const cal = args.calibrate > 0 ? heldOutCalibration(code, pairs, args.calibrate, args.cache, args.directions) : null;
    for (const direction of args.directions) {
      const fwd = direction === 'es->xx';
      const inputs = fwd ? devS : devT;
      const refs = fwd ? devT : devS;
      const hyps = [];
      const conf = [];
      const chrf = [];
      const hash = crypto.createHash('sha256');
      for (let i = 0; i < inputs.length; i++) {
        const r = tr.translateText(inputs[i], { direction: fwd ? 'forward' : 'reverse' });
        const hyp = r.translation.replace(/[\r\n]+/g, ' ');
        hyps.push(hyp);
        hash.update(hyp + '\n');
        conf.push(r.rawConfidence);
        chrf.push(engine.sentenceChrF(hyp, refs[i]));
        if (dump) fs.writeSync(dump, JSON.stringify({ lang: code, direction, i, chrf: chrf[i], ...featureRow(tr, inputs[i], fwd ? 0 : 1, r) }) + '\n');
      }
      const qs = quartiles(conf, hyps, refs);
      const row = {
        lang: code,
        direction,
        sentences: inputs.length,
        chrf: Number(engine.corpusChrF(hyps, refs).toFixed(4)),
        spearman: Number(spearman(conf, chrf).toFixed(3)),
        top_quartile_chrf: Number(qs.top.toFixed(4)),
        bottom_quartile_chrf: Number(qs.bottom.toFixed(4)),
        mean_raw_confidence: Number((conf.reduce((s, v) => s + v, 0) / conf.length).toFixed(3)),
        translations_sha256: hash.digest('hex').slice(0, 16),
      };
      if (cal) {
        const c = cal[direction];
        const calibrated = conf.map((x) => engine.calibrateConfidence(x, c.calibration));
        const cq = quartiles(calibrated, hyps, refs);
        Object.assign(row, {
          heldout_spearman: Number(c.spearman.toFixed(3)),
          calibrated_spearman: Number(spearman(calibrated, chrf).toFixed(3)),
          calibrated_top_quartile_chrf: Number(cq.top.toFixed(4)),
          calibrated_bottom_quartile_chrf: Number(cq.bottom.toFixed(4)),
          mean_calibrated_confidence: Number((calibrated.reduce((s, v) => s + v, 0) / calibrated.length).toFixed(3)),
          mean_sentence_chrf: Number((chrf.reduce((s, v) => s + v, 0) / chrf.length).toFixed(3)),
        });
      }
      rows.push(row);
      console.error(`[${code}] ${direction}: chrF ${row.chrf} spearman ${row.spearman} top ${row.top_quartile_chrf} bottom ${row.bottom_quartile_chrf}`);
    }
  }
  if (dump) fs.closeSync(dump);
  const mean = (k) => Number((rows.reduce((s, r) => s + r[k], 0) / Math.max(1, rows.length)).toFixed(3));
  const result = {
    generated_at: new Date().toISOString(),
    data: args.data,
    limit: args.limit,
    machine: {
      cpu: (os.cpus()[0] || {}).model,
      cores: os.cpus().length,
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadavg_start: os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' '),
    },
    mean_spearman: mean('spearman'),
    positive_rows: rows.filter((r) => r.spearman > 0).length,
    top_above_bottom_rows: rows.filter((r) => r.top_quartile_chrf > r.bottom_quartile_chrf).length,
    rows,
  };
  let failed = false;
  if (args.compare) {
    const prev = JSON.parse(fs.readFileSync(args.compare, 'utf8'));
    for (const r of rows) {
      const p = prev.rows.find((x) => x.lang === r.lang && x.direction === r.direction);
      if (!p) continue;
      const same = Math.abs(p.chrf - r.chrf) <= COMPARE_TOLERANCE && (!p.translations_sha256 || p.translations_sha256 === r.translations_sha256);
      console.error(
        `[compare] ${r.lang} ${r.direction}: chrF ${p.chrf} → ${r.chrf}, translations ${p.translations_sha256 === r.translations_sha256 ? 'identical' : 'DIFFERENT'}`,
      );
      if (!same) failed = true;
    }
    result.compared_with = { file: args.compare, identical: !failed };
  }
  const out = path.resolve(args.out);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  console.log('| lang | direction | chrF | Spearman | top-quartile chrF | bottom-quartile chrF |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.lang} | ${r.direction} | ${r.chrf} | ${r.spearman} | ${r.top_quartile_chrf} | ${r.bottom_quartile_chrf} |`);
  if (args.calibrate > 0) {
    console.log(
      '\n| lang | direction | held-out Spearman | calibrated Spearman | calibrated top / bottom quartile chrF | mean calibrated confidence / mean sentence chrF |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.lang} | ${r.direction} | ${r.heldout_spearman} | ${r.calibrated_spearman} | ${r.calibrated_top_quartile_chrf} / ${r.calibrated_bottom_quartile_chrf} | ${r.mean_calibrated_confidence} / ${r.mean_sentence_chrf} |`,
      );
  }
  console.log(
    `mean Spearman ${result.mean_spearman}; positive ${result.positive_rows}/${rows.length}; top > bottom ${result.top_above_bottom_rows}/${rows.length}`,
  );
  if (failed) process.exitCode = 1;
}

main();
