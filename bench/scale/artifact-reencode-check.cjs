#!/usr/bin/env node
/**
 * Same answers from a re-encoded artifact (issue #13, compact agents):
 *   node bench/scale/artifact-reencode-check.cjs <artifact .bin> [--n 300] [--lang gn] [--data ../shared/data/americasnlp2021]
 *
 * Loads an artifact as stored (any container / schema version this engine still reads), writes it again with the
 * current codec (model and index re-serialized), then translates N dev sentences in both directions with an agent
 * built from each (buildAgentBrain, as the translation service does) and counts identical answers (translation,
 * confidence, candidates). Prints the sizes before/after and one JSON line.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { readDevLines } = require('./dev-data.cjs');

const ROOT = path.resolve(__dirname, '../..');
require('../register-ts.cjs'); // the libs' TypeScript sources, compiled on the fly

function main() {
  const argv = process.argv.slice(2);
  const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
  const file = argv[0];
  const n = Number(opt('--n', 300));
  const lang = opt('--lang', 'gn');
  const data = path.resolve(opt('--data', path.join(ROOT, '../shared/data/americasnlp2021')));
  const engine = require(path.join(ROOT, 'libs/engine/src/index.ts'));
  const { decodeAgentArtifacts, encodeAgentArtifacts } = require(path.join(ROOT, 'libs/retrieval/data-access/src/lib/agent-artifacts.codec.ts'));
  const { buildAgentBrain } = require(path.join(ROOT, 'libs/translation/data-access/src/lib/engine-knowledge.ts'));
  const before = new Uint8Array(fs.readFileSync(file));
  const old = decodeAgentArtifacts(before);
  const after = encodeAgentArtifacts({
    model: engine.serializeModel(engine.deserializeModel(old.model.slice())),
    index: engine.HybridIndex.deserialize(old.index.slice()).serialize(),
  });
  const langs = { srcLang: 'es', tgtLang: lang };
  const a = buildAgentBrain(decodeAgentArtifacts(before), langs, 5).knowledge;
  const b = buildAgentBrain(decodeAgentArtifacts(after), langs, 5).knowledge;
  const read = (ext) => readDevLines(data, lang, ext, n);
  let same = 0;
  let total = 0;
  const diffs = [];
  for (const [direction, texts] of [
    ['forward', read('es')],
    ['reverse', read(lang)],
  ])
    for (const t of texts) {
      const x = JSON.stringify(a.draft(t, direction, 5));
      const y = JSON.stringify(b.draft(t, direction, 5));
      total++;
      if (x === y) same++;
      else if (diffs.length < 3) diffs.push({ direction, text: t, before: x, after: y });
    }
  const report = { file: path.relative(ROOT, file), bytesBefore: before.byteLength, bytesAfter: after.byteLength, translations: total, identical: same, diffs };
  process.stdout.write(
    `${(before.byteLength / 1e6).toFixed(2)} MB -> ${(after.byteLength / 1e6).toFixed(2)} MB; identical answers ${same}/${total}\n${JSON.stringify(report)}\n`,
  );
}

main();
