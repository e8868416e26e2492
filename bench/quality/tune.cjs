// Developer helper: compare translator settings on a dev subset (dev only — the scored split of the shared task is test).
// node bench/quality/tune.cjs <data> <langs> <limit> '<json array of TranslatorOptions>' [direction]
// direction: es->xx (default), xx->es, or both (one model per language, both directions scored).
// ITERS (alignment EM iterations) and ALIGN (JSON AlignOptions) in the environment change how the model is learned.
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
const dirs = direction === 'both' ? ['es->xx', 'xx->es'] : [direction || 'es->xx'];
const res = new Map();
const mar = new Map();
const push = (m, k, v) => (m.get(k) ?? m.set(k, []).get(k)).push(v);
for (const code of langs.split(',')) {
  const s = rd(code, 'train.es'),
    t = rd(code, `train.${code}`);
  const pairs = s.map((x, i) => ({ id: String(i), source: x, target: t[i] }));
  const model = engine.trainAgentModel(pairs, {
    iterations: Number(process.env.ITERS || 4),
    align: { ...(process.env.LAMBDA ? { lambda: Number(process.env.LAMBDA) } : {}), ...JSON.parse(process.env.ALIGN || '{}') },
  });
  const ix = new engine.HybridIndex();
  ix.add(pairs);
  const ds = rd(code, 'dev.es').slice(0, Number(limit)),
    dt = rd(code, `dev.${code}`).slice(0, Number(limit));
  for (const dir of dirs) {
    const fwd = dir === 'es->xx';
    const inp = fwd ? ds : dt,
      ref = fwd ? dt : ds;
    cfgs.forEach((cfg, ci) => {
      const tr = new engine.Translator(model, ix, cfg);
      const hyp = inp.map((x) => tr.translateText(x, { direction: fwd ? 'forward' : 'reverse' }).translation);
      const chars = (xs) => xs.reduce((a, b) => a + b.replace(/\s+/g, '').length, 0);
      const { chrf: c, margin } = measures.specificity(engine, hyp, ref);
      const kept = fwd ? null : measures.keptShare(engine, s, inp, hyp).kept_share.toFixed(3);
      push(res, `${dir} ${ci}`, c);
      push(mar, `${dir} ${ci}`, margin);
      console.log(
        `${code} ${dir} cfg${ci} chrF ${c.toFixed(4)} margin ${margin.toFixed(4)} ratio ${(chars(hyp) / chars(ref)).toFixed(3)}${kept ? ` kept ${kept}` : ''}`,
      );
    });
  }
}
const mean = (xs) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(4);
for (const dir of dirs)
  cfgs.forEach((c, i) => console.log(`${dir} cfg${i} avg chrF ${mean(res.get(`${dir} ${i}`))} margin ${mean(mar.get(`${dir} ${i}`))} ${JSON.stringify(c)}`));
