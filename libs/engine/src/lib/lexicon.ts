/**
 * Word lexicons p(t|s) and p(s|t) from the alignment model (flat CSR per input word id), and lookups of the lexicon and
 * phrase-table entries relevant to a text (for prompts and provenance).
 */
import type { AgentModel } from './model';
import { PHRASE_SCORE, PHRASE_SCORES_PER_OPTION } from './phrase-table';
import { LEXICON_MAX_ENTRIES } from './tuning';
import { isWordToken } from './tokenize';
import type { Direction, LexiconUse } from './types';
import { joinPhrase, sideTokens } from './subword';
import { dirIndex } from './vocabulary';

/** Multiword phrases listed by lookupLexicon: 2..LOOKUP_MAX_WORDS words seen at least LOOKUP_MIN_COUNT times. */
const LOOKUP_MAX_WORDS = 3;
const LOOKUP_MIN_COUNT = 2;
/** Entries per word listed by lookupLexicon by default. */
const LOOKUP_PER_WORD = 3;

export interface LexTable {
  /** per word id of the input side: its entries are off[id]..off[id + 1] - 1 */
  off: Int32Array;
  /** output side word ids */
  ids: Int32Array;
  probs: Float32Array;
}

export interface LexEntry {
  word: string;
  prob: number;
}

export function buildLex(inP: Int32Array, outP: Int32Array, prob: Float32Array, Vin: number, min: number): LexTable {
  const lists: { o: number; p: number }[][] = Array.from({ length: Vin }, () => []);
  for (let p = 0; p < prob.length; p++) {
    if (prob[p] < min) continue;
    lists[inP[p]].push({ o: outP[p], p: prob[p] });
  }
  const off = new Int32Array(Vin + 1);
  const ids: number[] = [];
  const probs: number[] = [];
  for (let w = 0; w < Vin; w++) {
    off[w] = ids.length;
    const l = lists[w].sort((a, b) => b.p - a.p).slice(0, LEXICON_MAX_ENTRIES);
    for (const e of l) {
      ids.push(e.o);
      probs.push(e.p);
    }
  }
  off[Vin] = ids.length;
  return { off, ids: Int32Array.from(ids), probs: Float32Array.from(probs) };
}

/** Best translations of an input-side word id. */
export function lexEntries(m: AgentModel, dir: 0 | 1, id: number): LexEntry[] {
  const L = m.lex[dir];
  if (id <= 0 || id + 1 >= L.off.length) return [];
  const outV = m.sides[dir === 0 ? 1 : 0];
  const res: LexEntry[] = [];
  for (let x = L.off[id]; x < L.off[id + 1]; x++) res.push({ word: L.ids[x] === 0 ? '' : outV.words[L.ids[x]], prob: L.probs[x] });
  return res;
}

/** Lexicon and phrase-table entries relevant to `text` (for prompts and provenance). */
export function lookupLexicon(m: AgentModel, text: string, direction: Direction = 'forward', perWord = LOOKUP_PER_WORD): LexiconUse[] {
  const dir = dirIndex(direction);
  const inV = m.sides[dir];
  const toks = sideTokens(m, dir, text);
  const out: LexiconUse[] = [];
  const seen = new Set<string>();
  for (const w of toks) {
    if (!isWordToken(w) || seen.has(w)) continue;
    seen.add(w);
    const id = inV.index.get(w) ?? 0;
    for (const e of lexEntries(m, dir, id)
      .filter((e) => e.word)
      .slice(0, perWord))
      out.push({ source: joinPhrase(w), target: joinPhrase(e.word), prob: e.prob });
  }
  // multiword phrases present in the text
  const tab = m.tables[dir];
  const outV = m.sides[dir === 0 ? 1 : 0];
  for (let i = 0; i < toks.length; i++)
    for (let n = 2; n <= LOOKUP_MAX_WORDS && i + n <= toks.length; n++) {
      const key = toks.slice(i, i + n).join(' ');
      const k = tab.keyIndex.get(key);
      if (k === undefined || seen.has(key)) continue;
      seen.add(key);
      const { from: o, to, tgtOff, tgtIds, scores, counts } = tab.options(k);
      if (o >= to || counts[o] < LOOKUP_MIN_COUNT) continue;
      const tw = Array.from(tgtIds.subarray(tgtOff[o], tgtOff[o + 1])).map((id) => outV.words[id]);
      out.push({ source: joinPhrase(key), target: joinPhrase(tw.join(' ')), prob: Math.exp(scores[o * PHRASE_SCORES_PER_OPTION + PHRASE_SCORE.phiF]) });
    }
  return out;
}
