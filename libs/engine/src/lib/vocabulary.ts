/**
 * Vocabularies of the two sides of an agent: word ids by frequency (after the reserved ids), preferred casing, the
 * modelling form of tokens, and the direction index used throughout (0 forward, 1 reverse).
 */
import { normalizeToken, tokenize } from './tokenize';
import type { Direction } from './types';

/** Word ids 0, 1, 2 are <unk>, <s>, </s>; the words of the data start here (most frequent first). */
export const FIRST_WORD_ID = 3;

export interface SideVocab {
  /** id -> word; ids below FIRST_WORD_ID are <unk>, <s>, </s> */
  words: string[];
  /** id -> preferred written form when it differs from the lower-cased word (proper names, acronyms), else '' */
  cased: string[];
  index: Map<string, number>;
  freq: Float32Array;
}

export function modelTokens(text: string): string[] {
  return tokenize(text).map(normalizeToken);
}

/** 0 for the forward direction (source → target), 1 for the reverse. */
export function dirIndex(direction: Direction | undefined): 0 | 1 {
  return direction === 'reverse' ? 1 : 0;
}

export function buildVocab(sents: string[][], raw: string[][]): SideVocab {
  const cnt = new Map<string, number>();
  for (const s of sents) for (const w of s) cnt.set(w, (cnt.get(w) ?? 0) + 1);
  // case variants seen away from the sentence start
  const variants = new Map<string, Map<string, number>>();
  raw.forEach((r, k) => {
    for (let i = 1; i < r.length; i++) {
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
