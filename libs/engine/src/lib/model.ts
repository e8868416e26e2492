/**
 * Core memory learned from the uploaded pairs, step by step: vocabularies (vocabulary.ts), EM word alignment in both
 * directions (align.ts), bilingual lexicons (lexicon.ts), phrase tables (phrase-table.ts), Kneser-Ney language models
 * for both sides (lm.ts), length statistics and frequent affix correspondences (affixes.ts). Stored as one artifact
 * (model-codec.ts); summarized for people in core-memory.ts.
 */
import { AffixPattern, learnAffixes } from './affixes';
import { AlignOptions, trainAlignment } from './align';
import { stemAlignment } from './align-forms';
import { CharLm } from './char-lm';
import { buildLex, LexTable } from './lexicon';
import { KnLm } from './lm';
import { learnPhraseTables, PhraseTable } from './phrase-table';
import { countSentenceEnds } from './sentence-ends';
import { backOffToStems, wordCounts } from './stem-backoff';
import { learnSegmenters, Segmenter, segmentTokens } from './subword';
import { normalizeToken, tokenize } from './tokenize';
import { ALIGN_ITERATIONS, ALIGN_MAX_LEN, ALIGN_UNSEEN_PROB, LEXICON_MIN_PROB, LM_MAX_VOCAB } from './tuning';
import type { ConfidenceCalibration, ParallelPair } from './types';
import type { SpellingCounts } from './unknown-words';
import { buildVocab, FIRST_WORD_ID, SideVocab, toIds } from './vocabulary';

/** Share of the learning done when each step starts (progress reports); alignment reports its own progress up to alignDone. */
const PROGRESS = {
  tokenize: 0,
  align: 0.05,
  alignDone: 0.55,
  lexicons: 0.6,
  phrases: 0.65,
  phraseScores: 0.8,
  languageModels: 0.88,
  statistics: 0.95,
  done: 1,
};

export interface ModelStats {
  pairs: number;
  srcTokens: number;
  tgtTokens: number;
  srcVocab: number;
  tgtVocab: number;
  /** target chars / source chars (whitespace excluded) — mean over pairs, corpus ratio, std of log ratio */
  charRatioMean: number;
  charRatioCorpus: number;
  logCharRatioStd: number;
  tokenRatioCorpus: number;
  phrasePairs: number;
  trainSeconds: number;
}

export interface AgentModel {
  version: 1;
  sides: [SideVocab, SideVocab];
  /** [forward (source→target), reverse (target→source)] */
  tables: [PhraseTable, PhraseTable];
  /** language models over side 0 (source language) and side 1 (target language) */
  lms: [KnLm, KnLm];
  /** character LM of each side (char-lm.ts); absent in artifacts written before it (the decoder goes without) */
  charLms?: [CharLm, CharLm];
  /** word lexicons: [p(t|s) keyed by source word id, p(s|t) keyed by target word id]; flat CSR */
  lex: [LexTable, LexTable];
  stats: ModelStats;
  affixes: [AffixPattern[], AffixPattern[]];
  /** confidence calibration per direction, fitted on held-out pairs at build (`fitConfidenceCalibration`) */
  calibration?: ModelCalibration;
  /** suffix inventories of the side modelled in stem and suffix pieces, if any (subword.ts) */
  segmenters?: [Segmenter, Segmenter];
  /** character gram counts of each side's vocabulary (spelling model of unknown-words.ts) as the artifact stores them;
   *  absent (counted from the vocabularies when first needed) in a model just learned or loaded from an older artifact */
  spelling?: [SpellingCounts, SpellingCounts];
}

export interface ModelCalibration {
  forward?: ConfidenceCalibration;
  reverse?: ConfidenceCalibration;
}

function charLen(s: string): number {
  return Array.from(s.replace(/\s+/g, '')).length;
}

export function trainAgentModel(
  pairs: ParallelPair[],
  opts?: { onProgress?: (fraction: number, message: string) => void; iterations?: number; align?: AlignOptions },
): AgentModel {
  const t0 = Date.now();
  const progress = opts?.onProgress ?? (() => undefined);
  progress(PROGRESS.tokenize, 'tokenizing');
  const good = pairs.filter((p) => p.source.trim() && p.target.trim());
  const wordsS = good.map((p) => tokenize(p.source));
  const wordsT = good.map((p) => tokenize(p.target));
  const normS = wordsS.map((r) => r.map(normalizeToken));
  const normT = wordsT.map((r) => r.map(normalizeToken));
  // the more inflected side is modelled in stem and suffix pieces (subword.ts)
  const segmenters = learnSegmenters(normS, normT);
  const knownS = new Set(normS.flat());
  const knownT = new Set(normT.flat());
  const rawS = wordsS.map((r, k) => segmentTokens(normS[k], segmenters[0], (w) => knownS.has(w), r));
  const rawT = wordsT.map((r, k) => segmentTokens(normT[k], segmenters[1], (w) => knownT.has(w), r));
  const S = normS.map((r) => segmentTokens(r, segmenters[0], (w) => knownS.has(w)));
  const T = normT.map((r) => segmentTokens(r, segmenters[1], (w) => knownT.has(w)));
  const vs = buildVocab(S, rawS);
  const vt = buildVocab(T, rawT);
  vs.finals = countSentenceEnds(S, vs);
  vt.finals = countSentenceEnds(T, vt);
  const Sid = S.map((s) => toIds(vs, s));
  const Tid = T.map((t) => toIds(vt, t));

  progress(PROGRESS.align, 'aligning words (EM, both directions)');
  const aS = Sid.map((s) => (s.length > ALIGN_MAX_LEN ? s.subarray(0, ALIGN_MAX_LEN) : s));
  const aT = Tid.map((t) => (t.length > ALIGN_MAX_LEN ? t.subarray(0, ALIGN_MAX_LEN) : t));
  const alignOpts = { iterations: opts?.iterations ?? ALIGN_ITERATIONS, ...(opts?.align ?? {}) };
  const alignMid = (PROGRESS.align + PROGRESS.alignDone) / 2;
  const { model: am } = trainAlignment(aS, aT, vs.words.length, vt.words.length, alignOpts, (f) =>
    progress(PROGRESS.align + (alignMid - PROGRESS.align) * f, 'aligning words (EM, both directions)'),
  );
  // phrase pairs come from the links of an alignment of stems (align-forms.ts)
  const stems = stemAlignment(S, T, vs.words, vt.words, alignOpts, (f) =>
    progress(alignMid + (PROGRESS.alignDone - alignMid) * f, 'aligning word stems (EM, both directions)'),
  );
  const links = stems.links;
  // rare words' probabilities backed off to their stems' (stem-backoff.ts)
  backOffToStems(am, stems, wordCounts(aS, vs.words.length), wordCounts(aT, vt.words.length), alignOpts.stemBackoff);

  progress(PROGRESS.lexicons, 'building lexicons');
  const lexF = buildLex(am.paramS, am.paramT, am.tF, vs.words.length, LEXICON_MIN_PROB);
  const lexR = buildLex(am.paramT, am.paramS, am.tR, vt.words.length, LEXICON_MIN_PROB);
  const tProb = (s: number, t: number, dir: 0 | 1): number => {
    const p = am.index.get(s, t);
    if (p === -1) return ALIGN_UNSEEN_PROB;
    return dir === 0 ? am.tF[p] : am.tR[p];
  };

  const { tables, pairs: phrasePairs } = learnPhraseTables(aS, aT, links, vs, vt, tProb, (step) =>
    step === 'extract' ? progress(PROGRESS.phrases, 'extracting phrase pairs') : progress(PROGRESS.phraseScores, 'scoring phrase tables'),
  );

  progress(PROGRESS.languageModels, 'training language models');
  const capIds = (x: Int32Array, V: number): Int32Array => (V <= LM_MAX_VOCAB ? x : x.map((id) => (id < LM_MAX_VOCAB ? id : 0)));
  const lmS = KnLm.train(
    Sid.map((x) => capIds(x, vs.words.length)),
    Math.min(vs.words.length, LM_MAX_VOCAB),
  );
  const lmT = KnLm.train(
    Tid.map((x) => capIds(x, vt.words.length)),
    Math.min(vt.words.length, LM_MAX_VOCAB),
  );

  const charLms: [CharLm, CharLm] = [CharLm.train(S), CharLm.train(T)];

  progress(PROGRESS.statistics, 'statistics and affixes');
  let sc = 0;
  let tc = 0;
  let st = 0;
  let tt = 0;
  let sumR = 0;
  const logs: number[] = [];
  good.forEach((p, k) => {
    const a = charLen(p.source);
    const b = charLen(p.target);
    sc += a;
    tc += b;
    st += S[k].length;
    tt += T[k].length;
    if (a > 0 && b > 0) {
      sumR += b / a;
      logs.push(Math.log(b / a));
    }
  });
  const mu = logs.reduce((x, y) => x + y, 0) / Math.max(1, logs.length);
  const sd = Math.sqrt(logs.reduce((x, y) => x + (y - mu) * (y - mu), 0) / Math.max(1, logs.length));
  const affF = learnAffixes(aS, aT, links, vs, vt, false);
  const affR = learnAffixes(aS, aT, links, vs, vt, true);
  const model: AgentModel = {
    version: 1,
    sides: [vs, vt],
    tables,
    lms: [lmS, lmT],
    charLms,
    lex: [lexF, lexR],
    affixes: [affF, affR],
    segmenters,
    stats: {
      pairs: good.length,
      srcTokens: st,
      tgtTokens: tt,
      srcVocab: vs.words.length - FIRST_WORD_ID,
      tgtVocab: vt.words.length - FIRST_WORD_ID,
      charRatioMean: sumR / Math.max(1, logs.length),
      charRatioCorpus: sc > 0 ? tc / sc : 1,
      logCharRatioStd: sd,
      tokenRatioCorpus: st > 0 ? tt / st : 1,
      phrasePairs,
      trainSeconds: (Date.now() - t0) / 1000,
    },
  };
  progress(PROGRESS.done, 'done');
  return model;
}

export async function trainAgentModelAsync(pairs: ParallelPair[], opts?: { onProgress?: (fraction: number, message: string) => void }): Promise<AgentModel> {
  await new Promise((r) => setImmediate(r));
  return trainAgentModel(pairs, opts);
}
