/**
 * Stem back-off of the word translation probabilities: a word seen a few times has a noisy p(t|s) (EM can only split
 * its few sentences between the words around it), while its stem (align-forms.ts, the first characters of the word)
 * has pooled the evidence of all its forms. Each word's distribution is interpolated with the one its stem gives,
 * weighted by how often the word was seen: p'(t|s) = (n(s)·p(t|s) + β·q(t|s)) / (n(s) + β), where q spreads the
 * stem-level p(stem(t)|stem(s)) over the words s co-occurred with (same total mass as p(·|s)). Frequent words keep
 * their own distribution; a word seen once gets half of its stem's. Both directions; lexicons and lexical weights of
 * the phrase tables are built from the result.
 */
import type { AlignmentModel } from './align';

/** β: weight (in observations of the word) of the stem's distribution. */
export const STEM_BACKOFF_WEIGHT = 3;

/** The stem-level alignment and the stem (alignment form) id of every word id of each side (0 = NULL). */
export interface StemModel {
  model: AlignmentModel;
  formS: Int32Array;
  formT: Int32Array;
}

/** Occurrences of each word id (0..V-1) in tokenized sentences. */
export function wordCounts(sents: Int32Array[], V: number): Float64Array {
  const n = new Float64Array(V);
  for (const s of sents) for (let i = 0; i < s.length; i++) n[s[i]]++;
  return n;
}

/**
 * Interpolates `am.tF` (p(t|s), by source word counts `nS`) and `am.tR` (p(s|t), by target word counts `nT`) with the
 * stem-level probabilities of `stems`, in place. `weight` 0 leaves the model unchanged.
 */
export function backOffToStems(am: AlignmentModel, stems: StemModel, nS: Float64Array, nT: Float64Array, weight = STEM_BACKOFF_WEIGHT): void {
  if (weight <= 0) return;
  const { paramS, paramT } = am;
  const P = paramS.length;
  // the stem-level probability of each parameter, in both directions
  const qF = new Float64Array(P);
  const qR = new Float64Array(P);
  for (let p = 0; p < P; p++) {
    const q = stems.model.index.get(stems.formS[paramS[p]], stems.formT[paramT[p]]);
    if (q === -1) continue;
    qF[p] = stems.model.tF[q];
    qR[p] = stems.model.tR[q];
  }
  smooth(am.tF, qF, paramS, nS, weight);
  smooth(am.tR, qR, paramT, nT, weight);
}

/** table[p] ← (n·table[p] + β·M·q[p]/Q) / (n + β) over the parameters of each conditioning word (`cond[p]`), NULL excluded. */
function smooth(table: Float32Array, q: Float64Array, cond: Int32Array, n: Float64Array, weight: number): void {
  const mass = new Float64Array(n.length);
  const qMass = new Float64Array(n.length);
  for (let p = 0; p < table.length; p++) {
    mass[cond[p]] += table[p];
    qMass[cond[p]] += q[p];
  }
  for (let p = 0; p < table.length; p++) {
    const w = cond[p];
    if (w === 0 || qMass[w] <= 0) continue;
    table[p] = (n[w] * table[p] + (weight * mass[w] * q[p]) / qMass[w]) / (n[w] + weight);
  }
}
