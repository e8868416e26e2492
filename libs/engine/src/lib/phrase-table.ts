/**
 * Phrase tables: phrase pairs (≤ MAX_PHRASE words) extracted from the symmetrized word alignments, scored with
 * φ(t|s), φ(s|t) and both lexical weights, grouped by input phrase with the best OPTIONS_PER_PHRASE options kept,
 * one table per direction. Phrase keys are looked up through a `KeyLookup` (a Map, or word-id hashing when loaded).
 */
import { PairTable } from './align';
import { MAX_PHRASE, OPTION_RANK_LEX_WEIGHT, OPTIONS_PER_PHRASE, PHRASE_UNALIGNED_EXTENSION } from './tuning';
import type { SideVocab } from './vocabulary';

/**
 * The packed scores of one phrase option (`PhraseTable.scores`, PHRASE_SCORES_PER_OPTION per option), natural logs,
 * from the table's point of view (input → output): φ(out|in), φ(in|out), lex(out|in), lex(in|out).
 */
export const PHRASE_SCORE = { phiF: 0, phiR: 1, lexF: 2, lexR: 3 } as const;
export const PHRASE_SCORES_PER_OPTION = 4;
/** The reverse table reads the forward scores with the conditionals swapped. */
const REVERSED_SCORE = [PHRASE_SCORE.phiR, PHRASE_SCORE.phiF, PHRASE_SCORE.lexR, PHRASE_SCORE.lexF];
/** Initial capacity of the phrase-pair hash (grows as needed). */
const PHRASE_PAIRS_INITIAL_CAPACITY = 1 << 16;

export interface PhraseTable {
  keys: string[];
  keyIndex: KeyLookup;
  /** per input phrase (key index): its options are off[k]..off[k + 1] - 1 */
  off: Int32Array;
  /** per option: its output words are tgtIds[tgtOff[o]]..tgtIds[tgtOff[o + 1] - 1] */
  tgtOff: Int32Array;
  tgtIds: Int32Array;
  /** PHRASE_SCORES_PER_OPTION per option, at the offsets of PHRASE_SCORE */
  scores: Float32Array;
  counts: Float32Array;
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
): { tables: [PhraseTable, PhraseTable]; pairs: number } {
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
  const phs = new Float32Array(P * PHRASE_SCORES_PER_OPTION);
  for (let x = 0; x < P; x++) {
    const c = ph.count[x];
    const si = ph.ps[x];
    const ti = ph.pt[x];
    const at = PHRASE_SCORES_PER_OPTION * x;
    phs[at + PHRASE_SCORE.phiF] = Math.log(c / cS[si]);
    phs[at + PHRASE_SCORE.phiR] = Math.log(c / cT[ti]);
    phs[at + PHRASE_SCORE.lexF] = lexWeight(sIdsOf[si], tIdsOf[ti], (a, b) => tProb(a, b, 0));
    phs[at + PHRASE_SCORE.lexR] = lexWeight(tIdsOf[ti], sIdsOf[si], (a, b) => tProb(b, a, 1));
  }
  const fwd = packTable(ph.ps, ph.pt, ph.count, phs, nS, tIdsOf, false);
  const rev = packTable(ph.pt, ph.ps, ph.count, phs, nT, sIdsOf, true);
  // keys of a table are phrases in words of the input side
  fwd.keys = sIdsOf.map((ids) => ids.map((id) => vs.words[id]).join(' '));
  rev.keys = tIdsOf.map((ids) => ids.map((id) => vt.words[id]).join(' '));
  fwd.keyIndex = new Map(fwd.keys.map((k, i) => [k, i]));
  rev.keyIndex = new Map(rev.keys.map((k, i) => [k, i]));
  return { tables: [fwd, rev], pairs: P };
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
function packTable(inP: number[], outP: number[], count: number[], sc: Float32Array, nIn: number, outIds: number[][], reverse: boolean): PhraseTable {
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
  return {
    keys: [],
    keyIndex: new Map(),
    off,
    tgtOff: Int32Array.from(tgtOff),
    tgtIds: Int32Array.from(tgtIds),
    scores: Float32Array.from(scores),
    counts: Float32Array.from(counts),
  };
}

/** Phrase keys stored as word-id sequences of the input side, looked up through an open-addressing hash. */
export class PhraseKeyIndex implements KeyLookup {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** per input word id: the key of that word alone, or -1 (single words skip the hash) */
  private readonly single: Int32Array;
  /** word ids of a multi-word query (a key has at most MAX_PHRASE words; longer queries are never keys) */
  private readonly query = new Int32Array(MAX_PHRASE + 1);

  constructor(
    private readonly vocab: SideVocab,
    private readonly start: Int32Array,
    private readonly ids: Int32Array,
  ) {
    let cap = 1024;
    while (cap < 2 * this.size) cap *= 2;
    this.slots = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    this.single = new Int32Array(vocab.words.length).fill(-1);
    for (let k = 0; k < this.size; k++) {
      const from = start[k];
      const to = start[k + 1];
      if (to - from === 1) {
        if (this.single[ids[from]] === -1) this.single[ids[from]] = k;
        continue;
      }
      let h = this.hash(ids, from, to) & this.mask;
      while (this.slots[h] !== -1) h = (h + 1) & this.mask;
      this.slots[h] = k;
    }
  }

  get size(): number {
    return this.start.length - 1;
  }

  private hash(a: ArrayLike<number>, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ a[i], 0x01000193);
    return (h ^ (h >>> 15)) >>> 0;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get(key: string): number | undefined {
    const index = this.vocab.index;
    let space = key.indexOf(' ');
    if (space < 0) {
      const id = index.get(key);
      const k = id === undefined ? -1 : this.single[id];
      return k < 0 ? undefined : k;
    }
    const q = this.query;
    let n = 0;
    let from = 0;
    for (;;) {
      if (n === MAX_PHRASE) return undefined;
      const id = index.get(space < 0 ? key.slice(from) : key.slice(from, space));
      if (id === undefined) return undefined;
      q[n++] = id;
      if (space < 0) break;
      from = space + 1;
      space = key.indexOf(' ', from);
    }
    let h = this.hash(q, 0, n) & this.mask;
    for (;;) {
      const k = this.slots[h];
      if (k === -1) return undefined;
      const s = this.start[k];
      if (this.start[k + 1] - s === n) {
        let same = true;
        for (let i = 0; i < n && same; i++) same = this.ids[s + i] === q[i];
        if (same) return k;
      }
      h = (h + 1) & this.mask;
    }
  }

  get byteSize(): number {
    return this.slots.byteLength + this.single.byteLength + this.start.byteLength + this.ids.byteLength;
  }

  /** The single-word keys as text, in key order (one pass over the key lengths; no phrase written out). */
  singleWordKeys(): string[] {
    const out: string[] = [];
    const w = this.vocab.words;
    for (let k = 0; k < this.size; k++) {
      const from = this.start[k];
      if (this.start[k + 1] - from === 1 && this.single[this.ids[from]] === k) out.push(w[this.ids[from]]);
    }
    return out;
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
