// Developer helpers.
//  Training / indexing stages of one language:  node bench/quality/profile.cjs <dir> <code> [copies]
//  Where warm translation CPU goes (issue #13):  node bench/quality/profile.cjs --translate --agent <artifact.bin>
//      [--lang gn] [--n 300] [--warm 200] [--repeat] [--root <dir with libs/engine>] [--data <americasnlp dir>] [--out f.cpuprofile]
//    loads a stored agent artifact (bench/scale builds them), translates --warm other dev sentences, then profiles the
//    translation of the first --n dev sentences of both directions (--repeat: the same --n es→xx sentences translated
//    twice before and twice while profiled, as the API load bench cycles them, so every per-word cache is warm) and
//    prints the CPU split by engine file and the top functions (self time, profiler and harness excluded).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly

const NOT_WORK = new Set(['(idle)', '(program)', '(root)']);

/** Self time per file and per function of a V8 CPU profile (microseconds), without idle and the profiler's own frames. */
function profileSplit(profile) {
  const byFile = new Map();
  const byFn = new Map();
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  let total = 0;
  for (const n of profile.nodes) {
    const t = self.get(n.id) ?? 0;
    const name = n.callFrame.functionName;
    if (!t || NOT_WORK.has(name) || name === 'cpuUsage' || name === 'dispatch') continue;
    total += t;
    const file = (n.callFrame.url || '').split('/').pop() || name;
    byFile.set(file, (byFile.get(file) ?? 0) + t);
    const fn = `${name || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + t);
  }
  const top = (m, k) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, t]) => `${((100 * t) / total).toFixed(1)}% ${name}`);
  return { totalMs: Math.round(total / 1000), files: top(byFile, 20), functions: top(byFn, 25) };
}

function profileTranslations(argv) {
  const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
  const root = path.resolve(opt('--root', path.join(__dirname, '../..')));
  const lang = opt('--lang', 'gn');
  const n = Number(opt('--n', 300));
  const warm = Number(opt('--warm', 200));
  const repeat = argv.includes('--repeat');
  const data = path.resolve(opt('--data', path.join(__dirname, '../../../shared/data/americasnlp2021')));
  const e = require(path.join(root, 'libs/engine/src/index.ts'));
  const { decodeAgentArtifacts } = require(path.join(__dirname, '../../libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'));
  const art = decodeAgentArtifacts(new Uint8Array(fs.readFileSync(opt('--agent'))));
  const tr = new e.Translator(e.deserializeModel(art.model), e.HybridIndex.deserialize(art.index.slice()));
  const dev = (ext) =>
    fs
      .readFileSync(path.join(data, `es-${lang}`, `dev.${ext}`), 'utf8')
      .split(/\r?\n/)
      .filter(Boolean);
  const sets = { forward: dev('es'), reverse: dev(lang) };
  const timed = repeat ? [['forward', sets.forward.slice(0, n)]] : Object.entries(sets).map(([d, xs]) => [d, xs.slice(0, n)]);
  const rounds = repeat ? 2 : 1;
  if (repeat) for (let r = 0; r < rounds; r++) for (const [d, xs] of timed) for (const s of xs) tr.translateText(s, { direction: d });
  else for (const [d, xs] of Object.entries(sets)) for (const s of xs.slice(n, n + warm)) tr.translateText(s, { direction: d });
  const { Session } = require('node:inspector');
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  const cpu = [];
  for (let r = 0; r < rounds; r++)
    for (const [d, xs] of timed)
      for (const s of xs) {
        const c0 = process.cpuUsage();
        tr.translateText(s, { direction: d });
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
  session.post('Profiler.stop', (err, res) => {
    if (err) throw err;
    if (opt('--out')) fs.writeFileSync(opt('--out'), JSON.stringify(res.profile));
    cpu.sort((a, b) => a - b);
    const split = profileSplit(res.profile);
    const report = {
      root,
      lang,
      translations: cpu.length,
      mode: repeat ? 'repeat (same es→xx sentences again)' : `fresh (after ${warm} others per direction)`,
      cpuMsPerTranslation: { p50: Number(cpu[cpu.length >> 1].toFixed(2)), mean: Number((cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(2)) },
      ...split,
    };
    console.log(JSON.stringify(report, null, 1));
  });
}

if (process.argv[2] === '--translate') profileTranslations(process.argv.slice(3));
else stages();

/** Training / indexing stages of one language (the first form above). */
function stages() {
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
}
