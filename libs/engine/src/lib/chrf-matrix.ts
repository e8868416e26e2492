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
const STAMP_MAX = 0x7fffffff;
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
let nextCharId = 0;

/** A UTF-16 unit `\s` matches (whitespace, removed before counting as metrics.ts does with split(/\s+/)). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Character ids of the current call: a BMP unit's id is valid when its stamp is the call's; others in `charIds`. */
const bmpId = new Int32Array(SUPPLEMENTARY_BASE);
const bmpStamp = new Int32Array(SUPPLEMENTARY_BASE);
let stamp = 0;
let units = new Uint16Array(256);

/**
 * A text's characters as ids (one per code point, a lone surrogate a character of its own), whitespace removed first
 * (so a high and a low surrogate that whitespace separated make one character, as in metrics.ts).
 */
function charSequence(text: string): Int32Array {
  if (units.length < text.length) units = new Uint16Array(2 * text.length);
  let len = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isSpace(c)) units[len++] = c;
  }
  const out = new Int32Array(len);
  let n = 0;
  for (let i = 0; i < len; i++) {
    let code = units[i];
    if (code >= HIGH_SURROGATE_MIN && code <= HIGH_SURROGATE_MAX && i + 1 < len) {
      const low = units[i + 1];
      if (low >= LOW_SURROGATE_MIN && low <= LOW_SURROGATE_MAX) {
        code = SUPPLEMENTARY_BASE + ((code - HIGH_SURROGATE_MIN) << SURROGATE_BITS) + (low - LOW_SURROGATE_MIN);
        i++;
      }
    }
    let id: number;
    if (code < SUPPLEMENTARY_BASE) {
      if (bmpStamp[code] !== stamp) {
        bmpStamp[code] = stamp;
        bmpId[code] = nextCharId++;
      }
      id = bmpId[code];
    } else {
      const known = charIds.get(code);
      id = known ?? nextCharId++;
      if (known === undefined) charIds.set(code, id);
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
  nextCharId = 0;
  stamp = stamp === STAMP_MAX ? 1 : stamp + 1;
  if (stamp === 1) bmpStamp.fill(0);
  const seqs = texts.map(charSequence);
  const A = nextCharId;
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
