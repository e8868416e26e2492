/**
 * The engine's raw confidence in an answer: how good the answer is likely to be, from features that predict its
 * sentence chrF on text the agent has not seen (input length, the answer's lexical support of the input, agreement
 * among the K candidates), lowered by the untranslated share of the input. Weights and their measurement: tuning.ts
 * (CONFIDENCE_WEIGHTS). The calibration (confidence-calibration.ts) maps it to expected chrF.
 */
import { pairwiseChrF } from './chrf-matrix';
import { isWordToken } from './tokenize';
import { CONFIDENCE_LENGTH_HALF_WORDS, CONFIDENCE_UNTRANSLATED_PENALTY, CONFIDENCE_WEIGHTS, FEATURE_PROB_FLOOR } from './tuning';
import type { Candidate } from './types';

export interface ConfidenceFeatures {
  /** word tokens of the input */
  words: number;
  /** the answer's mean log p(input word | output words), mapped to 0..1 */
  lexicalSupport: number;
  /** mean pairwise chrF of the candidates (1 with a single candidate) */
  agreement: number;
  /** untranslated share of the input's word characters */
  untranslated: number;
}

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

/**
 * The features of the answer `best` among `candidates`, for the input's (normalized) tokens. `agreement`: the
 * candidates' pairwise chrF when phase 2 has it already (`pairwiseChrF` of their texts, chrf-matrix.ts).
 */
export function confidenceFeatures(
  qTok: readonly string[],
  best: Candidate,
  candidates: readonly Candidate[],
  untranslated: number,
  agreement: Float64Array = pairwiseChrF(candidates.map((c) => c.text)),
): ConfidenceFeatures {
  const K = candidates.length;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      if (i === j) continue;
      sum += agreement[i * K + j];
      n++;
    }
  return {
    words: qTok.filter(isWordToken).length,
    lexicalSupport: clamp01(1 - (best.features.lexR ?? 0) / Math.log(FEATURE_PROB_FLOOR)),
    agreement: n ? sum / n : 1,
    untranslated: clamp01(untranslated),
  };
}

/** 0..1: the weighted mean of the features (CONFIDENCE_WEIGHTS) times the untranslated-share penalty. */
export function rawConfidence(f: ConfidenceFeatures): number {
  const w = CONFIDENCE_WEIGHTS;
  const length = f.words / (f.words + CONFIDENCE_LENGTH_HALF_WORDS);
  const mean = (w.length * length + w.lexicalSupport * f.lexicalSupport + w.agreement * f.agreement) / (w.length + w.lexicalSupport + w.agreement);
  return clamp01(mean * (1 - CONFIDENCE_UNTRANSLATED_PENALTY * f.untranslated));
}
