/**
 * Sentence chrF of every ordered pair of a line's candidates at once (the MBR utility of validate-refine.ts and the
 * agreement feature of confidence.ts): each text's character n-grams (orders 1..6, whitespace removed, a character
 * is a code point) are interned once into small ids and counted in one table, so a pair's matches are a pass over
 * one text's distinct n-grams reading the other's counts from that table — no per-pair maps. Every value equals
 * `chrfFromStats(chrfStatsFromCounts(charNgramCounts(texts[i]), charNgramCounts(texts[j])))` exactly (metrics.ts):
 * the same integer statistics go through the same chrfFromStats.
 */
import { chrfFromStats } from './metrics';

/** Character n-gram orders of chrF (metrics.ts CHAR_ORDER). */
const ORDER = 6;
/** UTF-16 surrogates: a character outside the BMP is a high one (D800–DBFF) followed by a low one (DC00–DFFF). */
const HIGH_SURROGATE_MIN = 0xd800;
const HIGH_SURROGATE_MAX = 0xdbff;
const LOW_SURROGATE_MIN = 0xdc00;
const LOW_SURROGATE_MAX = 0xdfff;
const WHITESPACE = /\s+/;

/** The n-gram statistics of one text: per order, its distinct n-gram ids and its number of n-grams. */
interface TextGrams {
  /** distinct n-gram ids of order n + 1 at ids[starts[n]] .. ids[starts[n + 1]] */
  ids: Int32Array;
  starts: Int32Array;
  /** n-grams of order n + 1 (with repeats): the chrF statistic `hyp` (or `ref`) of that order */
  total: Float64Array;
}

/** Code-unit offsets of the characters (code points) of `s`, and s.length after them (metrics.ts charNgramCounts). */
function charOffsets(s: string): number[] {
  const at: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < LOW_SURROGATE_MIN || c > LOW_SURROGATE_MAX || i === 0) at.push(i);
    else {
      const p = s.charCodeAt(i - 1);
      if (p < HIGH_SURROGATE_MIN || p > HIGH_SURROGATE_MAX) at.push(i);
    }
  }
  at.push(s.length);
  return at;
}

/** chrF from a pair's statistics per order: n-grams of the hypothesis, of the reference, matches (`st`: scratch). */
function chrfOf(st: Float64Array, hyp: Float64Array, ref: Float64Array, matches: Float64Array): number {
  for (let n = 0; n < ORDER; n++) {
    st[3 * n] = hyp[n];
    st[3 * n + 1] = ref[n];
    st[3 * n + 2] = matches[n];
  }
  return chrfFromStats(st);
}

/**
 * m[i * K + j]: chrF of texts[i] as hypothesis against texts[j] as reference (K = texts.length); the diagonal is
 * left 0 (callers use 1 or skip it).
 */
export function pairwiseChrF(texts: readonly string[]): Float64Array {
  const K = texts.length;
  const out = new Float64Array(K * K);
  if (K < 2) return out;
  // n-gram → id, one map per order (ids shared by all texts); counts[id * K + i]: occurrences in text i
  const intern: Map<string, number>[] = [];
  for (let n = 0; n < ORDER; n++) intern.push(new Map());
  let counts = new Int32Array(64 * K);
  let nextId = 0;
  const grams: TextGrams[] = [];
  for (let i = 0; i < K; i++) {
    const s = texts[i].split(WHITESPACE).join('');
    const at = charOffsets(s);
    const len = at.length - 1;
    const total = new Float64Array(ORDER);
    const starts = new Int32Array(ORDER + 1);
    const distinct: number[] = [];
    for (let n = 1; n <= ORDER; n++) {
      starts[n - 1] = distinct.length;
      const m = intern[n - 1];
      for (let p = 0; p + n <= len; p++) {
        const g = s.slice(at[p], at[p + n]);
        let id = m.get(g);
        if (id === undefined) {
          id = nextId++;
          m.set(g, id);
          if (nextId * K > counts.length) {
            const grown = new Int32Array(2 * counts.length);
            grown.set(counts);
            counts = grown;
          }
        }
        if (counts[id * K + i]++ === 0) distinct.push(id);
      }
      total[n - 1] = Math.max(0, len - n + 1);
    }
    starts[ORDER] = distinct.length;
    grams.push({ ids: Int32Array.from(distinct), starts, total });
  }
  // matches of a pair (symmetric): Σ over the n-grams of i of min(count in i, count in j)
  const st = new Float64Array(ORDER * 3);
  const matches = new Float64Array(ORDER);
  for (let i = 0; i < K; i++) {
    const gi = grams[i];
    for (let j = i + 1; j < K; j++) {
      const gj = grams[j];
      for (let n = 0; n < ORDER; n++) {
        let nm = 0;
        for (let x = gi.starts[n]; x < gi.starts[n + 1]; x++) {
          const row = gi.ids[x] * K;
          const a = counts[row + i];
          const b = counts[row + j];
          nm += a < b ? a : b;
        }
        matches[n] = nm;
      }
      out[i * K + j] = chrfOf(st, gi.total, gj.total, matches);
      out[j * K + i] = chrfOf(st, gj.total, gi.total, matches);
    }
  }
  return out;
}
