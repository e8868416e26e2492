/**
 * Phrase tables: phrase pairs (≤ MAX_PHRASE words) extracted from the symmetrized word alignments, scored with
 * φ(t|s), φ(s|t) and both lexical weights, grouped by input phrase with the best OPTIONS_PER_PHRASE options kept,
 * one table per direction. Phrase keys are looked up through a `KeyLookup` (a Map, or word-id hashing when loaded).
 */
import { PairTable } from './align';
import { ArtifactFormatError } from './artifact-codec';
import {
  MAX_PHRASE,
  OPTION_RANK_LEX_WEIGHT,
  OPTIONS_PER_PHRASE,
  PHRASE_DISCOUNTED_TABLES,
  PHRASE_SINGLETON_MAX_WORDS,
  PHRASE_UNALIGNED_EXTENSION,
} from './tuning';
import type { SideVocab } from './vocabulary';

/**
 * The packed scores of one phrase option (`PhraseTable.scores`, PHRASE_SCORES_PER_OPTION per option), natural logs,
 * from the table's point of view (input → output): φ(out|in), φ(in|out), lex(out|in), lex(in|out).
 */
export const PHRASE_SCORE = { phiF: 0, phiR: 1, lexF: 2, lexR: 3 } as const;
export const PHRASE_SCORES_PER_OPTION = 4;
/** The reverse table reads the forward scores with the conditionals swapped. */
const REVERSED_SCORE = [PHRASE_SCORE.phiR, PHRASE_SCORE.phiF, PHRASE_SCORE.lexR, PHRASE_SCORE.lexF];
/** Largest discount of a phrase count (below 1, so a pair seen once keeps a share of its own). */
const PHRASE_DISCOUNT_MAX = 0.9;
/** Initial capacity of the phrase-pair hash (grows as needed). */
const PHRASE_PAIRS_INITIAL_CAPACITY = 1 << 16;

/**
 * The options of one phrase-table key: options `from`..`to` - 1 of the columns below (the whole table's columns, or
 * those of the stored chunk the key is in).
 */
export interface PhraseOptions {
  from: number;
  to: number;
  /** per option: its output words are tgtIds[tgtOff[o]]..tgtIds[tgtOff[o + 1] - 1] */
  tgtOff: Int32Array;
  tgtIds: Int32Array;
  /** PHRASE_SCORES_PER_OPTION per option, at the offsets of PHRASE_SCORE */
  scores: Float32Array;
  counts: Float32Array;
}

/** A phrase table: its keys (input phrases) are found through `keyIndex`, their options read with `options(k)`. */
export interface PhraseTable {
  keyIndex: KeyLookup;
  /** the key texts in key order (written out on access by a loaded table: not for the translation path) */
  readonly keys: string[];
  /** the options of key k, best first */
  options(k: number): PhraseOptions;
}

/** A phrase table held as whole columns (learned, or read from a blob written before the artifact container). */
export class PackedPhraseTable implements PhraseTable {
  constructor(
    public keys: string[],
    public keyIndex: KeyLookup,
    /** per input phrase (key index): its options are off[k]..off[k + 1] - 1 */
    readonly off: Int32Array,
    readonly tgtOff: Int32Array,
    readonly tgtIds: Int32Array,
    readonly scores: Float32Array,
    readonly counts: Float32Array,
  ) {}

  options(k: number): PhraseOptions {
    return { from: this.off[k], to: this.off[k + 1], tgtOff: this.tgtOff, tgtIds: this.tgtIds, scores: this.scores, counts: this.counts };
  }

  /** Bytes of the columns (the keys are counted by the caller). */
  get byteSize(): number {
    return this.off.byteLength + this.tgtOff.byteLength + this.tgtIds.byteLength + this.scores.byteLength + this.counts.byteLength;
  }
}

/** Looks up a phrase-table key (words joined by one space); a `Map` satisfies it. */
export interface KeyLookup {
  get(key: string): number | undefined;
  has(key: string): boolean;
  readonly size: number;
}

/**
 * Extracts and scores the phrase pairs of aligned sentences (word ids; links as flat (source, target) index pairs)
 * into the forward and reverse tables. `tProb(s, t, dir)`: word translation probability of the alignment model.
 */
export function learnPhraseTables(
  aS: Int32Array[],
  aT: Int32Array[],
  links: Int32Array[],
  vs: SideVocab,
  vt: SideVocab,
  tProb: (s: number, t: number, dir: 0 | 1) => number,
  onStep: (step: 'extract' | 'score') => void,
): { tables: [PackedPhraseTable, PackedPhraseTable]; pairs: number } {
  onStep('extract');
  const ph = new PhraseCounts();
  for (let k = 0; k < aS.length; k++) extractPhrases(aS[k], aT[k], links[k], ph);

  onStep('score');
  const nS = ph.sKeys.length;
  const nT = ph.tKeys.length;
  const cS = new Float64Array(nS);
  const cT = new Float64Array(nT);
  const P = ph.count.length;
  for (let x = 0; x < P; x++) {
    cS[ph.ps[x]] += ph.count[x];
    cT[ph.pt[x]] += ph.count[x];
  }
  const sIdsOf = ph.sKeys.map((k) => k.split(' ').map(Number));
  const tIdsOf = ph.tKeys.map((k) => k.split(' ').map(Number));
  // the long pairs seen once are let go before scoring (their counts are in cS / cT: the φ of the others are those of
  // every pair), and the phrases left without a pair with them
  const kept = keptPairs(ph, sIdsOf, tIdsOf);
  const phs = new Float32Array(kept.pairs.length * PHRASE_SCORES_PER_OPTION);
  const discounted = PHRASE_DISCOUNTED_TABLES.some(Boolean) ? discountedPhi(ph, cS, cT) : null;
  kept.pairs.forEach((x, i) => {
    const c = ph.count[x];
    const si = ph.ps[x];
    const ti = ph.pt[x];
    const at = PHRASE_SCORES_PER_OPTION * i;
    phs[at + PHRASE_SCORE.phiF] = Math.log(c / cS[si]);
    phs[at + PHRASE_SCORE.phiR] = Math.log(c / cT[ti]);
    phs[at + PHRASE_SCORE.lexF] = lexWeight(sIdsOf[si], tIdsOf[ti], (a, b) => tProb(a, b, 0));
    phs[at + PHRASE_SCORE.lexR] = lexWeight(tIdsOf[ti], sIdsOf[si], (a, b) => tProb(b, a, 1));
  });
  /** the scores a table reads: the relative frequencies, or with φ discounted (the same lexical weights) */
  const scoresOf = (dir: 0 | 1): Float32Array => {
    if (!discounted || !PHRASE_DISCOUNTED_TABLES[dir]) return phs;
    const out = phs.slice();
    kept.pairs.forEach((x, i) => {
      out[PHRASE_SCORES_PER_OPTION * i + PHRASE_SCORE.phiF] = discounted.phiF(x);
      out[PHRASE_SCORES_PER_OPTION * i + PHRASE_SCORE.phiR] = discounted.phiR(x);
    });
    return out;
  };
  const fwd = packTable(kept.ps, kept.pt, kept.count, scoresOf(0), kept.sIds.length, kept.tIds, false);
  const rev = packTable(kept.pt, kept.ps, kept.count, scoresOf(1), kept.tIds.length, kept.sIds, true);
  // keys of a table are phrases in words of the input side
  fwd.keys = kept.sIds.map((ids) => ids.map((id) => vs.words[id]).join(' '));
  rev.keys = kept.tIds.map((ids) => ids.map((id) => vt.words[id]).join(' '));
  fwd.keyIndex = new Map(fwd.keys.map((k, i) => [k, i]));
  rev.keyIndex = new Map(rev.keys.map((k, i) => [k, i]));
  return { tables: [fwd, rev], pairs: kept.pairs.length };
}

/**
 * Discounted phrase probabilities (absolute discounting, as in Kneser-Ney; Foster, Kuhn & Johnson 2006, "Phrasetable
 * smoothing for statistical machine translation"): every pair's count is discounted by D,
 *   φ(t|s) = (c(s,t) − D) / c(s)   (and φ(s|t) alike),
 * with D = n1 / (n1 + 2·n2) from the counts of counts of all pairs, so a pair seen once beside no other is no longer
 * certain (φ 1 from a single sighting) and weighs less against the lexicons and the language model; the options of a
 * phrase keep their order. The mass taken is not handed back (KN's lower-order share, D · N1+(s,•) · N1+(•,t) /
 * N1+(•,•), is below 0.001 for nearly every pair and made the stored 8-bit score codes 1 % larger). Natural logs, by
 * pair index among all pairs.
 */
function discountedPhi(ph: PhraseCounts, cS: Float64Array, cT: Float64Array): { phiF: (x: number) => number; phiR: (x: number) => number } {
  let once = 0;
  let twice = 0;
  for (let x = 0; x < ph.count.length; x++) {
    if (ph.count[x] === 1) once++;
    else if (ph.count[x] === 2) twice++;
  }
  const D = once + twice > 0 ? Math.min(PHRASE_DISCOUNT_MAX, once / (once + 2 * twice)) : 0;
  return {
    phiF: (x) => Math.log((ph.count[x] - D) / cS[ph.ps[x]]),
    phiR: (x) => Math.log((ph.count[x] - D) / cT[ph.pt[x]]),
  };
}

/**
 * The phrase pairs a table keeps (`pairs`: their indexes among all): all but those seen once with a side longer than
 * PHRASE_SINGLETON_MAX_WORDS words; and, renumbered without the phrases no kept pair has (in the order they were first
 * seen, as before), each kept pair's phrases and count.
 */
function keptPairs(ph: PhraseCounts, sIdsOf: number[][], tIdsOf: number[][]) {
  const sUsed = new Uint8Array(sIdsOf.length);
  const tUsed = new Uint8Array(tIdsOf.length);
  const pairs: number[] = [];
  for (let x = 0; x < ph.count.length; x++) {
    const s = ph.ps[x];
    const t = ph.pt[x];
    if (ph.count[x] === 1 && Math.max(sIdsOf[s].length, tIdsOf[t].length) > PHRASE_SINGLETON_MAX_WORDS) continue;
    pairs.push(x);
    sUsed[s] = 1;
    tUsed[t] = 1;
  }
  const renumber = (used: Uint8Array, of: number[][]): { to: Int32Array; ids: number[][] } => {
    const to = new Int32Array(used.length).fill(-1);
    const ids: number[][] = [];
    for (let i = 0; i < used.length; i++)
      if (used[i]) {
        to[i] = ids.length;
        ids.push(of[i]);
      }
    return { to, ids };
  };
  const s = renumber(sUsed, sIdsOf);
  const t = renumber(tUsed, tIdsOf);
  return {
    pairs,
    ps: pairs.map((x) => s.to[ph.ps[x]]),
    pt: pairs.map((x) => t.to[ph.pt[x]]),
    count: pairs.map((x) => ph.count[x]),
    sIds: s.ids,
    tIds: t.ids,
  };
}

/** ln of IBM1-style lexical weight of out given inp: Π_j (1/(|inp|+1)) Σ_i p(out_j | inp_i) (incl. NULL). */
function lexWeight(inp: number[], out: number[], p: (a: number, b: number) => number): number {
  let lp = 0;
  for (const o of out) {
    let s = p(0, o);
    for (const i of inp) s += p(i, o);
    lp += Math.log(s / (inp.length + 1));
  }
  return lp;
}

class PhraseCounts {
  sKeys: string[] = [];
  tKeys: string[] = [];
  private sId = new Map<string, number>();
  private tId = new Map<string, number>();
  private pairs = new PairTable(PHRASE_PAIRS_INITIAL_CAPACITY);
  ps: number[] = [];
  pt: number[] = [];
  count: number[] = [];

  add(sk: string, tk: string): void {
    let s = this.sId.get(sk);
    if (s === undefined) {
      s = this.sKeys.length;
      this.sId.set(sk, s);
      this.sKeys.push(sk);
    }
    let t = this.tId.get(tk);
    if (t === undefined) {
      t = this.tKeys.length;
      this.tId.set(tk, t);
      this.tKeys.push(tk);
    }
    const x = this.pairs.get(s, t);
    if (x === -1) {
      this.pairs.set(s, t, this.count.length);
      this.ps.push(s);
      this.pt.push(t);
      this.count.push(1);
    } else this.count[x]++;
  }
}

function extractPhrases(S: Int32Array, T: Int32Array, links: Int32Array, out: PhraseCounts): void {
  const m = S.length;
  const n = T.length;
  if (!m || !n) return;
  const sStr = Array.from(S, String);
  const tStr = Array.from(T, String);
  const minI = new Int32Array(n).fill(1 << 30);
  const maxI = new Int32Array(n).fill(-1);
  const tAl = new Uint8Array(n);
  const sLinks: number[][] = Array.from({ length: m }, () => []);
  for (let x = 0; x < links.length; x += 2) {
    const i = links[x];
    const j = links[x + 1];
    sLinks[i].push(j);
    tAl[j] = 1;
    if (i < minI[j]) minI[j] = i;
    if (i > maxI[j]) maxI[j] = i;
  }
  for (let i1 = 0; i1 < m; i1++) {
    let j1 = n;
    let j2 = -1;
    for (let i2 = i1; i2 < Math.min(m, i1 + MAX_PHRASE); i2++) {
      for (const j of sLinks[i2]) {
        if (j < j1) j1 = j;
        if (j > j2) j2 = j;
      }
      if (j2 < 0) continue;
      if (j2 - j1 >= MAX_PHRASE) break;
      let ok = true;
      for (let j = j1; j <= j2 && ok; j++) if (tAl[j] && (minI[j] < i1 || maxI[j] > i2)) ok = false;
      if (!ok) continue;
      let sk = sStr[i1];
      for (let x = i1 + 1; x <= i2; x++) sk += ' ' + sStr[x];
      let e1 = 0;
      for (let a = j1; a >= 0 && (a === j1 || !tAl[a]) && e1 < PHRASE_UNALIGNED_EXTENSION; a--, e1++) {
        let e2 = 0;
        for (let b = j2; b < n && (b === j2 || !tAl[b]) && b - a < MAX_PHRASE && e2 < PHRASE_UNALIGNED_EXTENSION; b++, e2++) {
          let tk = tStr[a];
          for (let x = a + 1; x <= b; x++) tk += ' ' + tStr[x];
          out.add(sk, tk);
        }
      }
    }
  }
}

/** Groups phrase pairs by input phrase and keeps the best options per input phrase. */
function packTable(inP: number[], outP: number[], count: number[], sc: Float32Array, nIn: number, outIds: number[][], reverse: boolean): PackedPhraseTable {
  const groups: number[][] = Array.from({ length: nIn }, () => []);
  for (let x = 0; x < inP.length; x++) groups[inP[x]].push(x);
  const f = (x: number, k: number): number => sc[PHRASE_SCORES_PER_OPTION * x + (reverse ? REVERSED_SCORE[k] : k)];
  const rank = (x: number): number => f(x, PHRASE_SCORE.phiF) + OPTION_RANK_LEX_WEIGHT * f(x, PHRASE_SCORE.lexF);
  const off = new Int32Array(nIn + 1);
  const tgtOff: number[] = [];
  const tgtIds: number[] = [];
  const scores: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < nIn; i++) {
    off[i] = tgtOff.length;
    const g = groups[i].sort((a, b) => rank(b) - rank(a)).slice(0, OPTIONS_PER_PHRASE);
    for (const x of g) {
      tgtOff.push(tgtIds.length);
      for (const id of outIds[outP[x]]) tgtIds.push(id);
      scores.push(f(x, PHRASE_SCORE.phiF), f(x, PHRASE_SCORE.phiR), f(x, PHRASE_SCORE.lexF), f(x, PHRASE_SCORE.lexR));
      counts.push(count[x]);
    }
  }
  off[nIn] = tgtOff.length;
  tgtOff.push(tgtIds.length);
  return new PackedPhraseTable([], new Map(), off, Int32Array.from(tgtOff), Int32Array.from(tgtIds), Float32Array.from(scores), Float32Array.from(counts));
}

/** Smallest hash of a first word's phrases, and slots per phrase at least (a power of two). */
const MIN_BUCKET_SLOTS = 8;
const BUCKET_LOAD_INVERSE = 2;

/**
 * The word ids of a key of several words (`space`: the index of its first space) into q; 0 when a word is unknown or
 * the key is longer than MAX_PHRASE words.
 */
function phraseWordIds(key: string, space: number, index: { get(word: string): number | undefined }, q: Int32Array): number {
  let n = 0;
  let from = 0;
  for (;;) {
    if (n === MAX_PHRASE) return 0;
    const id = index.get(space < 0 ? key.slice(from) : key.slice(from, space));
    if (id === undefined) return 0;
    q[n++] = id;
    if (space < 0) return n;
    from = space + 1;
    space = key.indexOf(' ', from);
  }
}

/**
 * Phrase keys stored as word-id sequences of the input side. A single word's key is found by its word id; the keys of
 * several words are bucketed by their first word at load (two linear passes) and each bucket is hashed (open
 * addressing) the first time a phrase starting with its word is looked up, so a cold load does not hash every phrase.
 */
export class PhraseKeyIndex implements KeyLookup {
  /** per input word id: the key of that word alone, or -1 (single words skip the hash) */
  private readonly single: Int32Array;
  /** word ids of the single-word keys in key order */
  private readonly singles: Int32Array;
  /** per input word id w: the multi-word keys starting with w are bucketKeys[bucketStart[w]..bucketStart[w + 1] - 1] */
  private readonly bucketStart: Int32Array;
  private readonly bucketKeys: Int32Array;
  /** per input word id: the hash slots of its bucket once built (-1 empty), undefined before */
  private readonly bucketSlots: (Int32Array | undefined)[];
  private hashedBytes = 0;
  /** word ids of a multi-word query (a key has at most MAX_PHRASE words; longer queries are never keys) */
  private readonly query = new Int32Array(MAX_PHRASE + 1);

  constructor(
    private readonly vocab: SideVocab,
    private readonly start: Int32Array,
    /** the keys' word ids one after the other (as stored: 8, 16 or 32 bits per id) */
    private readonly ids: Uint8Array | Uint16Array | Uint32Array | Int32Array,
  ) {
    const V = vocab.words.length;
    this.single = new Int32Array(V).fill(-1);
    const bucketStart = new Int32Array(V + 1);
    // at most one single-word key per word: a typed array, not a growing list
    const singles = new Int32Array(V);
    let nSingles = 0;
    for (let k = 0; k < this.size; k++) {
      const w = ids[start[k]];
      if (start[k + 1] - start[k] > 1) bucketStart[w + 1]++;
      else if (this.single[w] === -1) {
        this.single[w] = k;
        singles[nSingles++] = w;
      }
    }
    for (let w = 0; w < V; w++) bucketStart[w + 1] += bucketStart[w];
    const fill = bucketStart.slice(0, V);
    const bucketKeys = new Int32Array(bucketStart[V]);
    for (let k = 0; k < this.size; k++) if (start[k + 1] - start[k] > 1) bucketKeys[fill[ids[start[k]]]++] = k;
    this.singles = singles.slice(0, nSingles);
    this.bucketStart = bucketStart;
    this.bucketKeys = bucketKeys;
    this.bucketSlots = new Array<Int32Array | undefined>(V);
  }

  get size(): number {
    return this.start.length - 1;
  }

  private hash(a: ArrayLike<number>, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ a[i], 0x01000193);
    return (h ^ (h >>> 15)) >>> 0;
  }

  /** The hash slots of the multi-word keys starting with word w (built on first use), or null if there are none. */
  private slotsOf(w: number): Int32Array | null {
    const hit = this.bucketSlots[w];
    if (hit) return hit;
    const from = this.bucketStart[w];
    const to = this.bucketStart[w + 1];
    if (from === to) return null;
    let cap = MIN_BUCKET_SLOTS;
    while (cap < BUCKET_LOAD_INVERSE * (to - from)) cap *= 2;
    const slots = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    for (let x = from; x < to; x++) {
      const k = this.bucketKeys[x];
      let h = this.hash(this.ids, this.start[k], this.start[k + 1]) & mask;
      while (slots[h] !== -1) h = (h + 1) & mask;
      slots[h] = k;
    }
    this.bucketSlots[w] = slots;
    this.hashedBytes += slots.byteLength;
    return slots;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get(key: string): number | undefined {
    const index = this.vocab.index;
    const space = key.indexOf(' ');
    if (space < 0) {
      const id = index.get(key);
      const k = id === undefined ? -1 : this.single[id];
      return k < 0 ? undefined : k;
    }
    const q = this.query;
    const n = phraseWordIds(key, space, index, q);
    if (n === 0) return undefined;
    const slots = this.slotsOf(q[0]);
    if (!slots) return undefined;
    const mask = slots.length - 1;
    let h = this.hash(q, 0, n) & mask;
    for (;;) {
      const k = slots[h];
      if (k === -1) return undefined;
      const s = this.start[k];
      if (this.start[k + 1] - s === n) {
        let same = true;
        for (let i = 0; i < n && same; i++) same = this.ids[s + i] === q[i];
        if (same) return k;
      }
      h = (h + 1) & mask;
    }
  }

  get byteSize(): number {
    return (
      this.hashedBytes +
      this.single.byteLength +
      this.singles.byteLength +
      this.bucketStart.byteLength +
      this.bucketKeys.byteLength +
      this.start.byteLength +
      this.ids.byteLength
    );
  }

  /** The single-word keys as text, in key order (listed at load; no phrase written out). */
  singleWordKeys(): string[] {
    return Array.from(this.singles, (id) => this.vocab.words[id]);
  }

  /** The keys as text (materialized once, on first use). */
  texts(): string[] {
    const out = new Array<string>(this.size);
    const w = this.vocab.words;
    for (let k = 0; k < this.size; k++) {
      let t = w[this.ids[this.start[k]]];
      for (let i = this.start[k] + 1; i < this.start[k + 1]; i++) t += ' ' + w[this.ids[i]];
      out[k] = t;
    }
    return out;
  }
}

/** Keys of a phrase table a loaded model finds by text: a Map, a `PhraseKeyIndex` or `FrontCodedKeys`. */
export type StoredKeyLookup = PhraseKeyIndex | FrontCodedKeys;

/**
 * The phrase keys of a loaded table as stored: front-coded (key k has len[k] words, shares its first shared[k] with key
 * k - 1, its other ids are the next ones of `fresh`). Load reads the lengths and shared counts once to bucket the
 * multi-word keys by first word (a key's first word is the next fresh id when it shares none, else its predecessor's)
 * and to note where each one's fresh ids start; no key is written out. A bucket is hashed on its first lookup, a key's
 * ids read back from the fresh ids of it and the keys before it (walking back while it shares words with them).
 */
export class FrontCodedKeys implements KeyLookup {
  /** per input word id: the key of that word alone (its first such key), or -1 */
  private readonly single: Int32Array;
  /** word ids of the single-word keys in key order */
  private readonly singles: Int32Array;
  /** per input word id w: its multi-word keys are bucketKeys[bucketStart[w]..bucketStart[w + 1] - 1], in key order */
  private readonly bucketStart: Int32Array;
  private readonly bucketKeys: Int32Array;
  /** per key: where its fresh ids start */
  private readonly freshAt: Int32Array;
  /** per input word id: the hash slots of its bucket once built (positions in bucketKeys, -1 empty), undefined before */
  private readonly bucketSlots: (Int32Array | undefined)[];
  private hashedBytes = 0;
  /** word ids of a query, and of a key read back (a key has at most MAX_PHRASE words) */
  private readonly query = new Int32Array(MAX_PHRASE + 1);
  private readonly read = new Int32Array(MAX_PHRASE + 1);

  constructor(
    private readonly vocab: SideVocab,
    private readonly len: Uint8Array,
    private readonly shared: Uint8Array,
    private readonly fresh: Uint8Array | Uint16Array | Uint32Array,
  ) {
    const b = bucketByFirstWord(len, shared, fresh, vocab.words.length);
    this.single = b.single;
    this.singles = b.singles;
    this.bucketStart = b.bucketStart;
    this.bucketKeys = b.bucketKeys;
    this.freshAt = b.freshAt;
    this.bucketSlots = new Array<Int32Array | undefined>(vocab.words.length);
  }
  get size(): number {
    return this.len.length;
  }

  /** The ids of key k (its fresh ids start at `at`) into `out`, read back through the keys it shares words with. */
  private idsOf(k: number, at: number, out: Int32Array): number {
    const l = this.len[k];
    let need = l;
    for (;;) {
      const s = this.shared[k];
      for (let j = s; j < need; j++) out[j] = this.fresh[at + j - s];
      if (s < need) need = s;
      if (need === 0) return l;
      k--;
      at -= this.len[k] - this.shared[k];
    }
  }

  private hash(a: Int32Array, n: number): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ a[i], 0x01000193);
    return (h ^ (h >>> 15)) >>> 0;
  }

  /** The hash slots of the multi-word keys starting with word w (built on first use), or null if there are none. */
  private slotsOf(w: number): Int32Array | null {
    const hit = this.bucketSlots[w];
    if (hit) return hit;
    const from = this.bucketStart[w];
    const to = this.bucketStart[w + 1];
    if (from === to) return null;
    let cap = MIN_BUCKET_SLOTS;
    while (cap < BUCKET_LOAD_INVERSE * (to - from)) cap *= 2;
    const slots = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    const ids = this.read;
    for (let x = from; x < to; x++) {
      const k = this.bucketKeys[x];
      const n = this.idsOf(k, this.freshAt[k], ids);
      let h = this.hash(ids, n) & mask;
      while (slots[h] !== -1) h = (h + 1) & mask;
      slots[h] = x;
    }
    this.bucketSlots[w] = slots;
    this.hashedBytes += slots.byteLength;
    return slots;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get(key: string): number | undefined {
    const index = this.vocab.index;
    const space = key.indexOf(' ');
    if (space < 0) {
      const id = index.get(key);
      const k = id === undefined || id >= this.single.length ? -1 : this.single[id];
      return k < 0 ? undefined : k;
    }
    const q = this.query;
    const n = phraseWordIds(key, space, index, q);
    if (n === 0) return undefined;
    const slots = this.slotsOf(q[0]);
    if (!slots) return undefined;
    const mask = slots.length - 1;
    const ids = this.read;
    let h = this.hash(q, n) & mask;
    for (;;) {
      const x = slots[h];
      if (x === -1) return undefined;
      const k = this.bucketKeys[x];
      if (this.len[k] === n) {
        this.idsOf(k, this.freshAt[k], ids);
        let same = true;
        for (let i = 0; i < n && same; i++) same = ids[i] === q[i];
        if (same) return k;
      }
      h = (h + 1) & mask;
    }
  }

  get byteSize(): number {
    return (
      this.hashedBytes +
      this.single.byteLength +
      this.singles.byteLength +
      this.bucketStart.byteLength +
      this.bucketKeys.byteLength +
      this.freshAt.byteLength +
      this.len.byteLength +
      this.shared.byteLength +
      this.fresh.byteLength
    );
  }

  /** The single-word keys as text, in key order (listed at load; no phrase written out). */
  singleWordKeys(): string[] {
    return Array.from(this.singles, (id) => this.vocab.words[id]);
  }

  /** The keys as text, in key order. */
  texts(): string[] {
    const out = new Array<string>(this.size);
    const w = this.vocab.words;
    const ids: string[] = [];
    let at = 0;
    for (let k = 0; k < this.size; k++) {
      const l = this.len[k];
      const s = this.shared[k];
      ids.length = s;
      for (let j = s; j < l; j++) ids.push(w[this.fresh[at++]]);
      out[k] = ids.join(' ');
    }
    return out;
  }
}

/** Vocabularies up to this many words number their words in 16 bits. */
const FIRST_WORD_16_BITS = 1 << 16;

/**
 * FrontCodedKeys' load: where each key's fresh ids start, the multi-word keys bucketed by first word and the single-word
 * keys (a pass writing per-key columns in order, then one scattering the multi-word keys into their buckets).
 */
function bucketByFirstWord(
  len: Uint8Array,
  shared: Uint8Array,
  fresh: Uint8Array | Uint16Array | Uint32Array,
  V: number,
): { single: Int32Array; singles: Int32Array; bucketStart: Int32Array; bucketKeys: Int32Array; freshAt: Int32Array } {
  const n = len.length;
  const bucketStart = new Int32Array(V + 1);
  const single = new Int32Array(V).fill(-1);
  const singles = new Int32Array(V);
  const freshAt = new Int32Array(n);
  // each key's first word (read back by the second pass): 16 bits whenever the vocabulary allows
  const firstOf = V <= FIRST_WORD_16_BITS ? new Uint16Array(n) : new Uint32Array(n);
  let nSingles = 0;
  let at = 0;
  let prevLen = 0;
  let first = 0;
  for (let k = 0; k < n; k++) {
    const l = len[k];
    const s = shared[k];
    if (s > l || s > prevLen) throw new ArtifactFormatError(`phrase key ${k} shares more words than it or the key before has`);
    if (s === 0) {
      first = fresh[at];
      if (first >= V) throw new ArtifactFormatError(`phrase key ${k} starts with word ${first}, not in the vocabulary of ${V}`);
    }
    freshAt[k] = at;
    firstOf[k] = first;
    at += l - s;
    if (l > 1) bucketStart[first + 1]++;
    else if (single[first] === -1) {
      single[first] = k;
      singles[nSingles++] = first;
    }
    prevLen = l;
  }
  if (at !== fresh.length) throw new ArtifactFormatError(`phrase keys are corrupt (${fresh.length - at} ids left over or missing)`);
  for (let w = 0; w < V; w++) bucketStart[w + 1] += bucketStart[w];
  const fill = bucketStart.slice(0, V);
  const bucketKeys = new Int32Array(bucketStart[V]);
  for (let k = 0; k < n; k++) if (len[k] > 1) bucketKeys[fill[firstOf[k]]++] = k;
  return { single, singles: singles.slice(0, nSingles), bucketStart, bucketKeys, freshAt };
}
