/**
 * Phase 1, translation-memory adaptation: the nearest example's translation with the parts that differ from the input
 * repaired — example words the input lacks removed (through the lexicon alignment), input words the example lacks
 * decoded and inserted after the output of the last matched word (glossary terms always count as differing).
 */
import type { PhraseDecoder } from './decoder';
import type { ForcedSpan } from './glossary';
import type { AgentModel } from './model';
import type { RetrievalHit } from './types';
import { sideTokens } from './subword';
import { sentenceStarts } from './tokenize';

/** An example's input side `H` and output side `O` in model tokens (read only: shared by the strategies of one line). */
export interface ExampleTokens {
  H: readonly string[];
  O: readonly string[];
}

/** The model tokens of both sides of `hit` for direction `dir`. */
export function exampleTokens(model: AgentModel, hit: RetrievalHit, dir: 0 | 1): ExampleTokens {
  return {
    H: sideTokens(model, dir, dir === 0 ? hit.source : hit.target),
    O: sideTokens(model, dir === 0 ? 1 : 0, dir === 0 ? hit.target : hit.source),
  };
}

/**
 * Adapts `hit` to the input (`qTok` normalized, `qSurf` surface tokens); `overlap`: LCS share of the tokens. `example`:
 * the hit's tokens when the caller has them already. An example sharing less than `minOverlap` of the tokens is not
 * adapted (null, before any decoding: most retrieved examples share too little to be a candidate).
 */
export function adaptExample(
  model: AgentModel,
  decoder: PhraseDecoder,
  qTok: string[],
  qSurf: string[],
  hit: RetrievalHit,
  dir: 0 | 1,
  forced: readonly ForcedSpan[] = [],
  example: ExampleTokens = exampleTokens(model, hit, dir),
  minOverlap = 0,
): { tokens: string[]; overlap: number } | null {
  const { H, O } = example;
  if (!H.length || !O.length) return null;
  // LCS between query and example input
  const n = qTok.length;
  const mH = H.length;
  const L = Array.from({ length: n + 1 }, () => new Int32Array(mH + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = mH - 1; j >= 0; j--) L[i][j] = qTok[i] === H[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const overlap = L[0][0] / Math.max(n, mH);
  if (L[0][0] === 0 || overlap < minOverlap) return null;
  const qMatch = new Int32Array(n).fill(-1);
  const hMatched = new Uint8Array(mH);
  for (let i = 0, j = 0; i < n && j < mH;) {
    if (qTok[i] === H[j]) {
      qMatch[i] = j;
      hMatched[j] = 1;
      i++;
      j++;
    } else if (L[i + 1][j] >= L[i][j + 1]) i++;
    else j++;
  }
  // glossary terms are never taken from the example: their words count as unmatched and are decoded (forced)
  for (const f of forced)
    for (let p = f.start; p < f.end; p++)
      if (qMatch[p] >= 0) {
        hMatched[qMatch[p]] = 0;
        qMatch[p] = -1;
      }
  // align output words to example input words through the lexicon
  const m = model;
  const inV = m.sides[dir];
  const outV = m.sides[dir === 0 ? 1 : 0];
  const lex = m.lex[dir];
  const a = new Int32Array(O.length).fill(-1);
  const best = new Float64Array(O.length);
  H.forEach((hw, hi) => {
    const id = inV.index.get(hw) ?? 0;
    if (!id) return;
    for (let x = lex.off[id]; x < lex.off[id + 1]; x++) {
      const ow = outV.words[lex.ids[x]];
      for (let j = 0; j < O.length; j++) {
        if (O[j] === ow && lex.probs[x] > best[j]) {
          best[j] = lex.probs[x];
          a[j] = hi;
        }
      }
    }
  });
  // delete output words aligned to unmatched example words
  const keep = O.map((_, j) => !(a[j] >= 0 && !hMatched[a[j]]));
  // last output position aligned to each example word
  const lastOut = new Int32Array(mH).fill(-1);
  for (let j = 0; j < O.length; j++) if (a[j] >= 0) lastOut[a[j]] = Math.max(lastOut[a[j]], j);
  const inserts = new Map<number, string[]>(); // after output position (-1 = start)
  // where a word of the input may be capitalized for its place alone (a span decoded below reads its part)
  const starts = sentenceStarts(qSurf);
  for (let i = 0; i < n;) {
    if (qMatch[i] >= 0) {
      i++;
      continue;
    }
    let e = i;
    while (e < n && qMatch[e] < 0) e++;
    const segForced = forced.filter((f) => f.start >= i && f.end <= e).map((f) => ({ ...f, start: f.start - i, end: f.end - i }));
    // the span is read as the part of the sentence it is: a name inside it is no sentence opener
    const seg = decoder.decode(qTok.slice(i, e), qSurf.slice(i, e), dir, 1, segForced, starts.slice(i, e))[0]?.tokens ?? [];
    let anchor = -1;
    for (let p = i - 1; p >= 0; p--)
      if (qMatch[p] >= 0) {
        anchor = lastOut[qMatch[p]];
        if (anchor < 0) {
          // fall back to proportional position
          anchor = Math.round((qMatch[p] / mH) * O.length) - 1;
        }
        break;
      }
    const arr = inserts.get(anchor) ?? [];
    arr.push(...seg);
    inserts.set(anchor, arr);
    i = e;
  }
  const out: string[] = [...(inserts.get(-1) ?? [])];
  for (let j = 0; j < O.length; j++) {
    if (keep[j]) out.push(O[j]);
    const ins = inserts.get(j);
    if (ins) out.push(...ins);
  }
  return { tokens: out, overlap };
}
