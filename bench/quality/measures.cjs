// Measures beside chrF that tell translation from target-language noise (shared by run.cjs and tune.cjs).
//  - specificity margin: corpus chrF against the aligned references minus the mean corpus chrF against the
//    same references shuffled with the engine's SHUFFLE_SEEDS fixed seeds (output that ignores its source scores ~0);
//  - generic floor: chrF of an output that ignores the source: the train target side's most frequent words,
//    in frequency order, cut to the expected length (source characters × the train corpus character ratio);
//  - kept share (into Spanish): of the source word tokens that are in the target side's train vocabulary
//    (loanwords, names, numbers written as words), the share that appears in the output;
//  - numbers kept: of the source tokens written with digits (numbers, dates, times), the share the output writes
//    (alone or with a suffix attached: '1899pe', '1899-pe').
'use strict';

const chars = (s) => s.replace(/\s+/g, '').length;

/** { chrf, shuffled, margin } for hyps against refs (beta 2): the engine's, as the quality report of a build measures it. */
const specificity = (engine, hyps, refs) => engine.specificity(hyps, refs);

/** Word tokens of the train side in descending frequency. */
function frequentWords(engine, lines) {
  const f = new Map();
  for (const l of lines) for (const t of engine.tokenize(l)) if (engine.isWordToken(t)) f.set(t.toLowerCase(), (f.get(t.toLowerCase()) ?? 0) + 1);
  return [...f.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}

/** chrF of the frequent-words output cut to the expected length of each sentence. */
function genericFloor(engine, trainIn, trainOut, inputs, refs) {
  const words = frequentWords(engine, trainOut);
  const ratio =
    trainOut.reduce((a, s) => a + chars(s), 0) /
    Math.max(
      1,
      trainIn.reduce((a, s) => a + chars(s), 0),
    );
  const hyps = inputs.map((s) => {
    const want = Math.round(chars(s) * ratio);
    const out = [];
    let n = 0;
    for (let i = 0; n < want && words.length; i++) {
      const w = words[i % words.length];
      out.push(w);
      n += w.length;
    }
    return out.join(' ');
  });
  return engine.corpusChrF(hyps, refs);
}

/** Share of source word tokens found in the target train vocabulary (and of those, kept in the output). */
function keptShare(engine, trainOut, inputs, hyps) {
  const vocab = new Set();
  for (const l of trainOut) for (const t of engine.tokenize(l)) if (engine.isWordToken(t)) vocab.add(t.toLowerCase());
  let words = 0;
  let inVocab = 0;
  let kept = 0;
  inputs.forEach((s, i) => {
    const out = new Set(engine.tokenize(hyps[i]).map((t) => t.toLowerCase()));
    for (const t of engine.tokenize(s)) {
      if (!engine.isWordToken(t)) continue;
      words++;
      const w = t.toLowerCase();
      if (!vocab.has(w)) continue;
      inVocab++;
      if (out.has(w)) kept++;
    }
  });
  return { in_vocab_share: words ? inVocab / words : 0, kept_share: inVocab ? kept / inVocab : 0 };
}

/** Share of the inputs' number tokens (written with digits) that the outputs write; null when the inputs hold none. */
function numbersKept(engine, inputs, hyps) {
  let numbers = 0;
  let kept = 0;
  inputs.forEach((s, i) => {
    const out = engine.tokenize(hyps[i]);
    for (const x of engine.tokenize(s)) {
      if (!engine.isNumberToken(x)) continue;
      numbers++;
      if (out.some((t) => t === x || (t.startsWith(x) && !/^[\p{N}.,:]/u.test(t.slice(x.length))))) kept++;
    }
  });
  return numbers ? kept / numbers : null;
}

/**
 * Share of the inputs' names that the outputs write as they are: words capitalized inside their sentence that the
 * reference also writes so (a name kept across the languages, not a capitalized word translated); null when none.
 */
function namesKept(engine, inputs, refs, hyps) {
  let names = 0;
  let kept = 0;
  inputs.forEach((s, i) => {
    const words = engine.tokenize(s);
    const ref = new Set(engine.tokenize(refs[i]));
    const out = new Set(engine.tokenize(hyps[i]));
    words.forEach((w, j) => {
      if (!engine.isWordToken(w) || !engine.capitalizedInside(words, j) || !ref.has(w)) return;
      names++;
      if (out.has(w)) kept++;
    });
  });
  return names ? kept / names : null;
}

module.exports = { specificity, genericFloor, keptShare, numbersKept, namesKept };
