#!/usr/bin/env node
/*
 * Per-sentence CPU time of the translator before and after a change, side by side in one process:
 *
 *   node bench/quality/speed.cjs --base <git rev> [--files a.ts,b.ts] [--data ../shared/data/americasnlp2021]
 *                                [--lang shp] [--limit 200] [--warm 0] [--out bench/results/quality-speed.json]
 *
 * Extracts libs/engine of <rev> into a temporary folder (with --files: the working tree's libs/engine with only
 * those files taken from <rev>, to time one change while others change the engine too), builds one agent per engine from train.* of one language,
 * then translates the same dev sentences (both directions) alternating between the two engines sentence by
 * sentence, so both see the same machine load. Reports the p50 / p90 CPU milliseconds per sentence and the ratio.
 * --warm N: each engine first translates the N dev sentences after the timed ones (both directions), so the timing
 * is of settled JIT code (no cache holds a timed sentence); without it the first translations also time compilation.
 * --swap 1: the working tree's engine is loaded and built first (by default the base's is). On this shared 2-core VM
 * the engine built second read 3-20% slower in some runs of two identical engines: quote both orders.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly

function args(argv) {
  const a = {
    base: null,
    files: null,
    data: '../shared/data/americasnlp2021',
    lang: 'shp',
    limit: 200,
    warm: 0,
    swap: '0',
    out: 'bench/results/quality-speed.json',
  };
  for (let i = 0; i < argv.length; i += 2) a[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!a.base) {
    console.error('usage: speed.cjs --base <git rev> [--data dir] [--lang code] [--limit n] [--out file.json]');
    process.exit(2);
  }
  return a;
}

const lines = (f) => {
  const l = fs
    .readFileSync(f, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);
  if (l[l.length - 1] === '') l.pop();
  return l;
};
const pct = (xs, p) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function main() {
  const a = args(process.argv.slice(2));
  const root = path.resolve(__dirname, '../..');
  const rev = execFileSync('git', ['rev-parse', '--short', a.base], { cwd: root }).toString().trim();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gaia-engine-base-'));
  if (a.files) {
    fs.cpSync(path.join(root, 'libs/engine'), path.join(tmp, 'libs/engine'), { recursive: true });
    for (const f of a.files.split(',')) fs.writeFileSync(path.join(tmp, f), execFileSync('git', ['show', `${rev}:${f}`], { cwd: root }));
  } else execFileSync('sh', ['-c', `git archive ${rev} libs/engine | tar -x -C ${tmp}`], { cwd: root });
  const swap = a.swap === '1';
  const load = (k) => require(path.join(k === 'before' ? tmp : root, 'libs/engine/src/index.ts'));
  const order = swap ? ['after', 'before'] : ['before', 'after'];
  const engines = Object.fromEntries(order.map((k) => [k, load(k)]));
  const dir = path.resolve(a.data, `es-${a.lang}`);
  const trS = lines(path.join(dir, 'train.es'));
  const trT = lines(path.join(dir, `train.${a.lang}`));
  const pairs = trS.slice(0, trT.length).map((s, i) => ({ id: String(i), source: s, target: trT[i] }));
  const devLines = { forward: lines(path.join(dir, 'dev.es')), reverse: lines(path.join(dir, `dev.${a.lang}`)) };
  const dev = { forward: devLines.forward.slice(0, Number(a.limit)), reverse: devLines.reverse.slice(0, Number(a.limit)) };
  const warm = Number(a.warm);
  const tr = {};
  for (const [k, e] of Object.entries(engines)) {
    const index = new e.HybridIndex();
    index.add(pairs);
    tr[k] = new e.Translator(e.trainAgentModel(pairs), index);
    tr[k].translateText(dev.forward[0]); // warm-up
    for (const direction of ['forward', 'reverse'])
      for (const t of devLines[direction].slice(Number(a.limit), Number(a.limit) + warm)) tr[k].translateText(t, { direction });
  }
  const cpu = { before: [], after: [] };
  for (const direction of ['forward', 'reverse'])
    dev[direction].forEach((s, i) => {
      const order = i % 2 ? ['after', 'before'] : ['before', 'after'];
      for (const k of order) {
        const c0 = process.cpuUsage();
        tr[k].translateText(s, { direction });
        const c = process.cpuUsage(c0);
        cpu[k].push((c.user + c.system) / 1000);
      }
    });
  const stat = (xs) => ({
    p50_cpu_ms: Number(pct(xs, 50).toFixed(2)),
    p90_cpu_ms: Number(pct(xs, 90).toFixed(2)),
    mean_cpu_ms: Number((xs.reduce((x, y) => x + y, 0) / xs.length).toFixed(2)),
  });
  const result = {
    generated_at: new Date().toISOString(),
    base: rev,
    base_files: a.files ? a.files.split(',') : 'libs/engine',
    lang: a.lang,
    warm,
    builtFirst: order[0],
    sentences: cpu.after.length,
    machine: {
      cpu: (os.cpus()[0] || {}).model,
      cores: os.cpus().length,
      node: process.version,
      loadavg: os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' '),
    },
    before: stat(cpu.before),
    after: stat(cpu.after),
  };
  result.p50_ratio = Number((result.after.p50_cpu_ms / result.before.p50_cpu_ms).toFixed(3));
  result.mean_ratio = Number((result.after.mean_cpu_ms / result.before.mean_cpu_ms).toFixed(3));
  fs.writeFileSync(path.resolve(a.out), JSON.stringify(result, null, 2) + '\n');
  const md = [
    '# Translator CPU time per sentence, before / after (one process, alternating sentences)',
    '',
    `Base ${rev}${a.files ? ` (only ${a.files.split(',').join(', ')}; the rest is the working tree)` : ''}; ${a.lang}, first ${a.limit} dev sentences in both directions (${result.sentences} translations each${warm ? `, after ${warm} others warmed each engine` : ''}; ${order[0]} engine built first); ${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}, load ${result.machine.loadavg}.`,
    '',
    '| engine | p50 CPU ms | p90 CPU ms | mean CPU ms |',
    '|---|---|---|---|',
    `| before (${rev}) | ${result.before.p50_cpu_ms} | ${result.before.p90_cpu_ms} | ${result.before.mean_cpu_ms} |`,
    `| after (working tree) | ${result.after.p50_cpu_ms} | ${result.after.p90_cpu_ms} | ${result.after.mean_cpu_ms} |`,
    '',
    `p50 ratio after / before: ${result.p50_ratio}, mean ratio ${result.mean_ratio}`,
  ];
  fs.writeFileSync(path.resolve(a.out).replace(/\.json$/, '.md'), md.join('\n') + '\n');
  console.log(md.join('\n'));
  fs.rmSync(tmp, { recursive: true, force: true });
}

main();
