/**
 * Sentence chrF of every ordered pair of a line's candidates at once (the MBR utility of validate-refine.ts and the
 * agreement feature of confidence.ts). Each text's characters (whitespace removed; a character is a code point, as in
 * metrics.ts) get small ids; its n-grams (orders 1..6) are interned as paths of a trie — an n-gram is its (n-1)-gram
 * prefix's id and its last character — in one open-addressing table of typed arrays, and counted per text in one
 * table; a pair's matches are then one pass over a text's distinct n-grams reading both counts. No n-gram strings, no
 * per-pair maps. Every value equals `chrfFromStats(chrfStatsFromCounts(charNgramCounts(texts[i]),
 * charNgramCounts(texts[j])))` exactly: the same integer statistics go through the same chrfFromStats.
 */
import { chrfFromStats } from './metrics';

/** Character n-gram orders of chrF (metrics.ts CHAR_ORDER). */
const ORDER = 6;
/** UTF-16 surrogates: a character outside the BMP is a high one (D800–DBFF) followed by a low one (DC00–DFFF). */
const HIGH_SURROGATE_MIN = 0xd800;
const HIGH_SURROGATE_MAX = 0xdbff;
const LOW_SURROGATE_MIN = 0xdc00;
const LOW_SURROGATE_MAX = 0xdfff;
const SUPPLEMENTARY_BASE = 0x10000;
const SURROGATE_BITS = 10;
const WHITESPACE = /\s+/;
/** Odd multipliers of the trie table's hash (32-bit multiplicative hashing) and the mix of MurmurHash3's finalizer. */
const HASH_PREFIX = 0x9e3779b1;
const HASH_CHAR = 0x85ebca77;
const HASH_MIX = 0x27d4eb2f;
const EMPTY = -1;

/** Scratch of the calls (one runs at a time): the trie table, n-gram counts per text, each n-gram's order. */
let trieKeys = new Float64Array(0);
let trieIds = new Int32Array(0);
let counts = new Int32Array(0);
let orderOf = new Int32Array(0);
const charIds = new Map<number, number>();

/** A text's characters as ids of `charIds` (one per code point; a lone surrogate is a character of its own). */
function charSequence(text: string): Int32Array {
  const s = text.split(WHITESPACE).join('');
  const out = new Int32Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let code = s.charCodeAt(i);
    if (code >= HIGH_SURROGATE_MIN && code <= HIGH_SURROGATE_MAX && i + 1 < s.length) {
      const low = s.charCodeAt(i + 1);
      if (low >= LOW_SURROGATE_MIN && low <= LOW_SURROGATE_MAX) {
        code = SUPPLEMENTARY_BASE + ((code - HIGH_SURROGATE_MIN) << SURROGATE_BITS) + (low - LOW_SURROGATE_MIN);
        i++;
      }
    }
    let id = charIds.get(code);
    if (id === undefined) {
      id = charIds.size;
      charIds.set(code, id);
    }
    out[n++] = id;
  }
  return out.subarray(0, n);
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
  charIds.clear();
  const seqs = texts.map(charSequence);
  const A = charIds.size;
  // n-grams of each text per order (the chrF statistic of a hypothesis or reference), and all of them
  const total = seqs.map((c) => {
    const t = new Float64Array(ORDER);
    for (let n = 1; n <= ORDER; n++) t[n - 1] = Math.max(0, c.length - n + 1);
    return t;
  });
  let grams = 0;
  for (const t of total) for (let n = 0; n < ORDER; n++) grams += t[n];
  let cap = 1;
  while (cap < 2 * grams) cap *= 2;
  if (trieKeys.length < cap) {
    trieKeys = new Float64Array(cap);
    trieIds = new Int32Array(cap);
  }
  trieKeys.fill(EMPTY, 0, cap);
  if (counts.length < grams * K) counts = new Int32Array(Math.max(grams * K, 2 * counts.length));
  if (orderOf.length < grams) orderOf = new Int32Array(Math.max(grams, 2 * orderOf.length));
  const mask = cap - 1;
  let nextId = 0;
  // each text's distinct n-grams (ids)
  const distinct: Int32Array[] = [];
  for (let i = 0; i < K; i++) {
    const c = seqs[i];
    const own = new Int32Array(total[i].reduce((a, b) => a + b, 0));
    let nOwn = 0;
    for (let p = 0; p < c.length; p++) {
      let node = -1;
      for (let n = 0; n < ORDER && p + n < c.length; n++) {
        const ch = c[p + n];
        const key = (node + 1) * A + ch;
        let slot = (Math.imul(node + 1, HASH_PREFIX) ^ Math.imul(ch + 1, HASH_CHAR)) >>> 0;
        slot ^= slot >>> 15;
        slot = Math.imul(slot, HASH_MIX) & mask;
        while (trieKeys[slot] !== key && trieKeys[slot] !== EMPTY) slot = (slot + 1) & mask;
        if (trieKeys[slot] === EMPTY) {
          trieKeys[slot] = key;
          trieIds[slot] = nextId;
          orderOf[nextId] = n;
          nextId++;
        }
        node = trieIds[slot];
        if (counts[node * K + i]++ === 0) own[nOwn++] = node;
      }
    }
    distinct.push(own.subarray(0, nOwn));
  }
  // matches of a pair (symmetric): Σ over the n-grams of i of min(count in i, count in j), per order
  const st = new Float64Array(ORDER * 3);
  const matches = new Float64Array(ORDER);
  for (let i = 0; i < K; i++) {
    const di = distinct[i];
    for (let j = i + 1; j < K; j++) {
      matches.fill(0);
      for (let x = 0; x < di.length; x++) {
        const g = di[x];
        const a = counts[g * K + i];
        const b = counts[g * K + j];
        if (b > 0) matches[orderOf[g]] += a < b ? a : b;
      }
      out[i * K + j] = chrfOf(st, total[i], total[j], matches);
      out[j * K + i] = chrfOf(st, total[j], total[i], matches);
    }
  }
  counts.fill(0, 0, nextId * K);
  return out;
}
