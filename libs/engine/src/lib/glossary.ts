/**
 * Glossary terms forced into the answer (constrained decoding): where a term's input side occurs in the input (whole
 * tokens; case-insensitive unless the term says otherwise), the decoder may only translate that span by the term's
 * required output, and no phrase may straddle the span.
 */
import { normalizeToken, tokenize } from './tokenize';
import type { AppliedTerm, GlossaryTerm } from './types';

/** A term found in the input: tokens `start`..`end` (exclusive) of the input are translated by `out`. */
export interface ForcedSpan {
  start: number;
  end: number;
  /** required output tokens as the glossary writes them */
  out: string[];
  /** the same in the modelling form (normalized) */
  norm: string[];
  term: GlossaryTerm;
}

/**
 * Non-overlapping term occurrences in the input tokens, the longest terms placed first (then the leftmost).
 * `dir` 0 matches `term.source` and forces `term.target`; 1 the other way round.
 */
export function findForcedSpans(surface: string[], terms: readonly GlossaryTerm[] | undefined, dir: 0 | 1): ForcedSpan[] {
  if (!terms?.length || !surface.length) return [];
  const norm = surface.map(normalizeToken);
  const found: ForcedSpan[] = [];
  for (const term of terms) {
    const from = tokenize(dir === 0 ? term.source : term.target);
    const to = tokenize(dir === 0 ? term.target : term.source);
    if (!from.length || !to.length) continue;
    const want = term.caseSensitive ? from : from.map(normalizeToken);
    const have = term.caseSensitive ? surface : norm;
    for (let i = 0; i + want.length <= have.length; i++) {
      let same = true;
      for (let j = 0; j < want.length && same; j++) same = have[i + j] === want[j];
      if (same) found.push({ start: i, end: i + want.length, out: to, norm: to.map(normalizeToken), term });
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const taken = new Uint8Array(surface.length);
  const spans: ForcedSpan[] = [];
  for (const f of found) {
    let free = true;
    for (let i = f.start; i < f.end && free; i++) free = !taken[i];
    if (!free) continue;
    taken.fill(1, f.start, f.end);
    spans.push(f);
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** Whether `tokens` (modelling form) contain the span's required output. */
export function containsForced(tokens: readonly string[], span: ForcedSpan): boolean {
  const want = span.norm;
  for (let i = 0; i + want.length <= tokens.length; i++) {
    let same = true;
    for (let j = 0; j < want.length && same; j++) same = normalizeToken(tokens[i + j]) === want[j];
    if (same) return true;
  }
  return false;
}

/** Writes each required output in the glossary's own spelling and casing wherever it occurs in `tokens`. */
export function restoreTermForms(tokens: string[], spans: readonly ForcedSpan[]): string[] {
  if (!spans.length) return tokens;
  const out = [...tokens];
  for (const span of spans) {
    const want = span.norm;
    for (let i = 0; i + want.length <= out.length; i++) {
      let same = true;
      for (let j = 0; j < want.length && same; j++) same = normalizeToken(out[i + j]) === want[j];
      if (same) out.splice(i, want.length, ...span.out);
    }
  }
  return out;
}

/** UTF-16 offsets of each token in `text` ([-1, -1] when the tokenizer rewrote it: NFC, rejoined glottal marks). */
export function tokenOffsets(text: string, surface: readonly string[]): [number, number][] {
  const res: [number, number][] = [];
  let cursor = 0;
  for (const tok of surface) {
    const at = text.indexOf(tok, cursor);
    if (at >= 0) cursor = at + tok.length;
    res.push(at >= 0 ? [at, at + tok.length] : [-1, -1]);
  }
  return res;
}

/** The forced spans as reported to the caller (input offsets of the matched text). */
export function appliedTerms(text: string, surface: readonly string[], spans: readonly ForcedSpan[]): AppliedTerm[] {
  if (!spans.length) return [];
  const at = tokenOffsets(text, surface);
  return spans.map((s) => {
    const start = at[s.start][0];
    const end = at[s.end - 1][1];
    return { source: s.term.source, target: s.term.target, start: start < 0 ? 0 : start, end: end < 0 ? text.length : end };
  });
}
