/**
 * Vocabularies of the two sides of an agent: word ids by frequency (after the reserved ids), preferred casing, the
 * modelling form of tokens, and the direction index used throughout (0 forward, 1 reverse).
 */
import { normalizeToken, sentenceStarts, tokenize } from './tokenize';
import type { Direction } from './types';

/** Word ids 0, 1, 2 are <unk>, <s>, </s>; the words of the data start here (most frequent first). */
export const FIRST_WORD_ID = 3;

export interface SideVocab {
  /** id -> word; ids below FIRST_WORD_ID are <unk>, <s>, </s> */
  words: string[];
  /** id -> preferred written form when it differs from the lower-cased word (proper names, acronyms), else '' */
  cased: string[];
  /** word -> id (a `Map` when learned, a `WordIndex` when loaded) */
  index: WordLookup;
  freq: Float32Array;
  /** id -> sentences of the data whose last word it is (sentence-ends.ts countSentenceEnds); absent in artifacts
   *  written before it */
  finals?: Float32Array;
}

/** Looks up the id of a word; a `Map` satisfies it. */
export interface WordLookup {
  get(word: string): number | undefined;
  has(word: string): boolean;
  readonly size: number;
}

/**
 * The ids of a loaded vocabulary's words through an open-addressing hash of their UTF-16 units: built in one pass over
 * the words, several times faster than filling a `Map` (a cold load builds one per side). As a `Map` filled in id
 * order, a word listed twice has its last id.
 */
export class WordIndex implements WordLookup {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** distinct words */
  readonly size: number;

  constructor(private readonly words: readonly string[]) {
    let cap = WORD_INDEX_MIN_CAPACITY;
    while (cap < WORD_INDEX_LOAD_INVERSE * words.length) cap *= 2;
    this.slots = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
    let size = 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      let h = wordHash(w) & this.mask;
      for (;;) {
        const at = this.slots[h];
        if (at === -1) size++;
        if (at === -1 || words[at] === w) break;
        h = (h + 1) & this.mask;
      }
      this.slots[h] = i;
    }
    this.size = size;
  }

  get(word: string): number | undefined {
    let h = wordHash(word) & this.mask;
    for (;;) {
      const at = this.slots[h];
      if (at === -1) return undefined;
      if (this.words[at] === word) return at;
      h = (h + 1) & this.mask;
    }
  }

  has(word: string): boolean {
    return this.get(word) !== undefined;
  }

  /** Bytes of the hash (the words are counted with the vocabulary). */
  get byteSize(): number {
    return this.slots.byteLength;
  }
}

/** Smallest slot count of a `WordIndex`, and slots per word at most (a power of two at least twice the words). */
const WORD_INDEX_MIN_CAPACITY = 64;
const WORD_INDEX_LOAD_INVERSE = 2;

/** FNV-1a over a word's UTF-16 units, its high bits folded in. */
function wordHash(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  return h ^ (h >>> 15);
}

export function modelTokens(text: string): string[] {
  return tokenize(text).map(normalizeToken);
}

/** How often a side's data writes a token (0 for one it never writes). */
export function wordCount(side: SideVocab, token: string): number {
  const id = side.index.get(token);
  return id === undefined ? 0 : side.freq[id];
}

/** 0 for the forward direction (source → target), 1 for the reverse. */
export function dirIndex(direction: Direction | undefined): 0 | 1 {
  return direction === 'reverse' ? 1 : 0;
}

export function buildVocab(sents: string[][], raw: string[][]): SideVocab {
  const cnt = new Map<string, number>();
  for (const s of sents) for (const w of s) cnt.set(w, (cnt.get(w) ?? 0) + 1);
  // case variants seen away from the start of a sentence (a word after '¿' or a full stop is capitalized for that)
  const variants = new Map<string, Map<string, number>>();
  raw.forEach((r, k) => {
    const starts = sentenceStarts(r);
    for (let i = 1; i < r.length; i++) {
      if (starts[i]) continue;
      const w = sents[k][i];
      const form = r[i].replace(/[’‘`´ʼꞌꞋ]/g, "'");
      let m = variants.get(w);
      if (!m) variants.set(w, (m = new Map()));
      m.set(form, (m.get(form) ?? 0) + 1);
    }
  });
  const sorted = [...cnt.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const words = ['<unk>', '<s>', '</s>', ...sorted.map((e) => e[0])];
  const freq = new Float32Array(words.length);
  sorted.forEach((e, i) => (freq[i + FIRST_WORD_ID] = e[1]));
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  const cased = words.map((w) => {
    const m = variants.get(w);
    if (!m) return '';
    let best = w;
    let bc = -1;
    for (const [f, c] of m)
      if (c > bc || (c === bc && f === w)) {
        best = f;
        bc = c;
      }
    return best === w ? '' : best;
  });
  return { words, index, freq, cased };
}

export function toIds(v: SideVocab, s: string[]): Int32Array {
  const out = new Int32Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = v.index.get(s[i]) ?? 0;
  return out;
}
