#!/usr/bin/env node
/**
 * Where an agent artifact's bytes and its cold first translation go (issue #13, compact agents):
 *   node bench/scale/artifact-probe.cjs <artifact .bin> [--cold N] [--data ../shared/data/americasnlp2021 --lang gn]
 *
 * Sizes: every section of the model (MODL) and the index (INDX) container, stored bytes and encoding, largest first.
 * Cold (--cold N, default 5): in this process, N times: read the file, decode the artifact, build the agent's brain
 * exactly as the translation service does (buildAgentBrain) and translate one dev sentence; phases and medians in ms.
 * Prints JSON (one line) after the human-readable table.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly
const { buildAgentBrain } = require(path.join(ROOT, 'libs/translation/data-access/src/lib/engine-knowledge.ts'));

const HEAD = 16;

/** Sections stored in numbered blocks (index schema 5: `srcText0`, `srcText1`, …, `ctxQ0`, …), summed as `srcText*`. */
const BLOCKED = /^(srcText|tgtText|ctxQ)\d+$/;

function grouped(list) {
  const out = new Map();
  for (const s of list) {
    const m = BLOCKED.exec(s.name);
    const name = m ? `${m[1]}*` : s.name;
    const g = out.get(name);
    if (g) {
      g.n += s.n;
      g.bytes += s.bytes;
      g.blocks += 1;
    } else out.set(name, { ...s, name, ...(m ? { blocks: 1 } : {}) });
  }
  return [...out.values()];
}

/** Sections of one GAIX container: name, encoding, values, stored bytes (blocks of one table summed). */
function sections(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = Buffer.from(bytes.subarray(4, 8)).toString('ascii');
  const dlen = view.getUint32(12, true);
  const dir = JSON.parse(Buffer.from(bytes.subarray(HEAD, HEAD + dlen)).toString('utf8'));
  return {
    kind,
    version: view.getUint16(8, true),
    schema: view.getUint16(10, true),
    directoryBytes: dlen,
    sections: grouped(dir.sections.map((s) => ({ name: s.name, enc: s.enc, n: s.n, bytes: s.len }))),
  };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor((s.length - 1) / 2)] * 10) / 10;
}

function main() {
  const argv = process.argv.slice(2);
  const file = argv.find((x, i) => !x.startsWith('--') && (i === 0 || !argv[i - 1].startsWith('--')));
  const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
  const coldRuns = Number(opt('--cold', 5));
  const data = path.resolve(opt('--data', path.join(ROOT, '../shared/data/americasnlp2021')));
  const lang = opt('--lang', 'gn');
  const { decodeAgentArtifacts } = require(path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'));
  const bytes = new Uint8Array(fs.readFileSync(file));
  const parts = decodeAgentArtifacts(bytes);
  const report = { file: path.relative(ROOT, file), totalBytes: bytes.byteLength, parts: {} };
  // the pairs' UTF-8 text, when the bench wrote it next to the artifact (`<file>.json`, bench/scale/run.cjs): the
  // issue #13 target is everything stored ≤ 3× of it
  const info = fs.existsSync(`${file}.json`) ? JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) : null;
  const ofText = (n) => (info?.textBytes ? ` (${(n / info.textBytes).toFixed(2)}× the pairs' text)` : '');
  if (info?.textBytes) {
    report.textBytes = info.textBytes;
    report.ratioToText = Number((bytes.byteLength / info.textBytes).toFixed(3));
    process.stdout.write(`total ${(bytes.byteLength / 1e6).toFixed(2)} MB${ofText(bytes.byteLength)}, ${info.pairs} pairs\n`);
  }
  for (const [name, b] of Object.entries(parts)) {
    const c = sections(b);
    report.parts[name] = { bytes: b.byteLength, ...c };
    process.stdout.write(`${name} (${c.kind} v${c.version} schema ${c.schema}): ${(b.byteLength / 1e6).toFixed(2)} MB${ofText(b.byteLength)}\n`);
    const count = (x) => c.sections.find((s) => s.name === x)?.n;
    // index schema 6: context rows learned again from the texts instead of stored
    if (count('ctxDerived') !== undefined) process.stdout.write(`  context rows: ${count('ctxKeys')}, learned again from the texts: ${count('ctxDerived')}\n`);
    for (const s of [...c.sections].sort((x, y) => y.bytes - x.bytes))
      process.stdout.write(`  ${s.name.padEnd(18)} ${s.enc.padEnd(9)} ${String(s.n).padStart(9)}  ${(s.bytes / 1e6).toFixed(3)} MB\n`);
  }
  if (coldRuns > 0) {
    const devFile = path.join(data, `es-${lang}`, 'dev.es');
    const sentences = fs.existsSync(devFile) ? fs.readFileSync(devFile, 'utf8').split(/\r?\n/).filter(Boolean) : ['la casa es grande'];
    const phases = { read: [], decode: [], brain: [], translate: [], total: [] };
    for (let i = 0; i < coldRuns + 1; i++) {
      const t0 = performance.now();
      const buf = new Uint8Array(fs.readFileSync(file));
      const t1 = performance.now();
      const art = decodeAgentArtifacts(buf);
      const t2 = performance.now();
      const brain = buildAgentBrain(art, { srcLang: 'es', tgtLang: lang }, 5);
      const t3 = performance.now();
      brain.knowledge.draft(sentences[i % sentences.length], 'forward', 5);
      const t4 = performance.now();
      if (i === 0) continue; // the first run compiles the engine's code
      phases.read.push(t1 - t0);
      phases.decode.push(t2 - t1);
      phases.brain.push(t3 - t2);
      phases.translate.push(t4 - t3);
      phases.total.push(t4 - t0);
    }
    report.coldMsMedian = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, median(v)]));
    process.stdout.write(`cold (median of ${coldRuns}): ${JSON.stringify(report.coldMsMedian)}\n`);
  }
  process.stdout.write(JSON.stringify(report) + '\n');
}

/** Stored bytes of an agent artifact: per part (model, index) and its largest sections, for bench results. */
function breakdown(bytes, top = 8) {
  const { decodeAgentArtifacts } = require(path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'));
  const out = {};
  for (const [name, b] of Object.entries(decodeAgentArtifacts(bytes))) {
    const c = sections(b);
    out[name] = {
      bytes: b.byteLength,
      container: `${c.kind} v${c.version} schema ${c.schema}`,
      largest: [...c.sections]
        .sort((x, y) => y.bytes - x.bytes)
        .slice(0, top)
        .map((s) => ({ name: s.name, enc: s.enc, bytes: s.bytes })),
    };
  }
  return out;
}

module.exports = { sections, breakdown };
if (require.main === module) main();
