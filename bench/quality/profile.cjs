// Developer helper: time the stages of training / indexing on one language. node bench/quality/profile.cjs <dir> <code>
'use strict';
const fs = require('node:fs');
const path = require('node:path');
require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly
const engine = require('../../libs/engine/src/index.ts');
const [dir, code, mult] = process.argv.slice(2);
const rd = (f) =>
  fs
    .readFileSync(path.join(dir, `es-${code}`, f), 'utf8')
    .split('\n')
    .filter((x, i, a) => i < a.length - 1 || x);
const s = rd('train.es');
const t = rd(`train.${code}`);
let pairs = s.map((x, i) => ({ id: String(i), source: x, target: t[i] }));
for (let k = 1; k < Number(mult || 1); k++) pairs = pairs.concat(s.map((x, i) => ({ id: `${k}-${i}`, source: x, target: t[i] })));
let last = Date.now();
let cpu0 = process.cpuUsage();
const cpu = () => {
  const c = process.cpuUsage(cpu0);
  cpu0 = process.cpuUsage();
  return ((c.user + c.system) / 1e6).toFixed(2) + 's cpu';
};
const m = engine.trainAgentModel(pairs, {
  onProgress: (f, msg) => {
    const now = Date.now();
    console.log(`${(now - last) / 1000}s -> ${f.toFixed(2)} ${msg}`);
    last = now;
  },
});
console.log('stats', m.stats, cpu());
let a = Date.now();
const ix = new engine.HybridIndex();
ix.add(pairs);
console.log('index add', (Date.now() - a) / 1000, cpu());
a = Date.now();
ix.search('hola mundo', 5);
console.log('first search (embed)', (Date.now() - a) / 1000);
cpu();
a = Date.now();
const bytes = ix.serialize();
console.log('serialize', (Date.now() - a) / 1000, bytes.length, cpu());
cpu();
a = Date.now();
engine.HybridIndex.deserialize(bytes);
console.log('deserialize', (Date.now() - a) / 1000, cpu());
a = Date.now();
const mb = engine.serializeModel(m);
console.log('model serialize', (Date.now() - a) / 1000, mb.length);
cpu();
a = Date.now();
engine.deserializeModel(mb);
console.log('model deserialize', (Date.now() - a) / 1000, cpu());
console.log('rss MB', process.memoryUsage().rss / 1048576);
