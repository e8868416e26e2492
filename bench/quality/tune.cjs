// Developer helper: compare translator settings on a dev subset (dev only — the scored split of the shared task is test).
// node bench/quality/tune.cjs <data> <langs> <limit> '<json array of TranslatorOptions>' [direction]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly
const engine = require('../../libs/engine/src/index.ts');
const measures = require('./measures.cjs');
const [data, langs, limit, cfgJson, direction] = process.argv.slice(2);
const cfgs = JSON.parse(cfgJson);
const rd = (code, f) => {
  const l = fs
    .readFileSync(path.join(data, `es-${code}`, f), 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  if (l[l.length - 1] === '') l.pop();
  return l;
};
const fwd = (direction || 'es->xx') === 'es->xx';
const res = cfgs.map(() => []);
const mar = cfgs.map(() => []);
for (const code of langs.split(',')) {
  const s = rd(code, 'train.es'),
    t = rd(code, `train.${code}`);
  const pairs = s.map((x, i) => ({ id: String(i), source: x, target: t[i] }));
  const model = engine.trainAgentModel(pairs, {
    iterations: Number(process.env.ITERS || 4),
    align: process.env.LAMBDA ? { lambda: Number(process.env.LAMBDA) } : {},
  });
  const ix = new engine.HybridIndex();
  ix.add(pairs);
  const ds = rd(code, 'dev.es').slice(0, Number(limit)),
    dt = rd(code, `dev.${code}`).slice(0, Number(limit));
  const inp = fwd ? ds : dt,
    ref = fwd ? dt : ds;
  cfgs.forEach((cfg, ci) => {
    const tr = new engine.Translator(model, ix, cfg);
    const hyp = inp.map((x) => tr.translateText(x, { direction: fwd ? 'forward' : 'reverse' }).translation);
    const chars = (xs) => xs.reduce((a, b) => a + b.replace(/\s+/g, '').length, 0);
    const { chrf: c, margin } = measures.specificity(engine, hyp, ref);
    const kept = fwd ? null : measures.keptShare(engine, s, inp, hyp).kept_share.toFixed(3);
    res[ci].push(c);
    mar[ci].push(margin);
    console.log(
      `${code} cfg${ci} chrF ${c.toFixed(4)} margin ${margin.toFixed(4)} ratio ${(chars(hyp) / chars(ref)).toFixed(3)}${kept ? ` kept ${kept}` : ''}`,
    );
  });
}
const mean = (xs) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(4);
cfgs.forEach((c, i) => console.log(`cfg${i} avg chrF ${mean(res[i])} margin ${mean(mar[i])} ${JSON.stringify(c)}`));
