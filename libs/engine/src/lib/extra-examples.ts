/**
 * Examples supplied with a request (the owner's corrections): an identical input is answered with them exactly;
 * otherwise they join the retrieved examples, placed by their token overlap with the input among the retrieved
 * ones, and replace retrieved pairs with the same input side (a correction supersedes the pair it corrects).
 */
import { EXTRA_MIN_OVERLAP } from './tuning';
import { modelTokens } from './vocabulary';
import type { ExtraExample, RetrievalHit } from './types';

/** Shared tokens over the longer of the two token lists (multiset). */
export function tokenOverlap(a: readonly string[], b: readonly string[]): number {
  if (!a.length || !b.length) return 0;
  const m = new Map<string, number>();
  for (const t of b) m.set(t, (m.get(t) ?? 0) + 1);
  let n = 0;
  for (const t of a) {
    const c = m.get(t) ?? 0;
    if (c > 0) {
      n++;
      m.set(t, c - 1);
    }
  }
  return n / Math.max(a.length, b.length);
}

const inputSide = (e: { source: string; target: string }, dir: 0 | 1): string => (dir === 0 ? e.source : e.target);
const key = (text: string): string => modelTokens(text).join(' ');

export function extraId(e: ExtraExample, position: number): string {
  return e.id ?? `extra-${position}`;
}

/** The first example (in the order given) whose input side equals the input (normalized tokens), if any. */
export function exactExample<E extends { source: string; target: string }>(text: string, examples: readonly E[], dir: 0 | 1): E | null {
  const q = key(text);
  return (q && examples.find((e) => key(inputSide(e, dir)) === q)) || null;
}

/** The extra example whose input side equals the input (normalized tokens), if any (the last one supplied wins). */
export function exactExtraExample(text: string, extras: readonly ExtraExample[] | undefined, dir: 0 | 1): ExtraExample | null {
  return extras?.length ? exactExample(text, [...extras].reverse(), dir) : null;
}

/**
 * Retrieved hits with the relevant extra examples merged in (at most `limit`), and the ids of the extra ones.
 * An extra example's `score` is its token overlap with the input.
 */
export function mergeExtraExamples(
  hits: readonly RetrievalHit[],
  extras: readonly ExtraExample[] | undefined,
  qTok: readonly string[],
  dir: 0 | 1,
  limit: number,
): { hits: RetrievalHit[]; extraIds: Set<string> } {
  const extraIds = new Set<string>();
  if (!extras?.length) return { hits: [...hits], extraIds };
  const own = extras
    .map((e, i) => ({ e, i, toks: modelTokens(inputSide(e, dir)) }))
    .map((x) => ({ ...x, overlap: tokenOverlap(qTok, x.toks) }))
    .filter((x) => x.overlap >= EXTRA_MIN_OVERLAP)
    .sort((a, b) => b.overlap - a.overlap);
  if (!own.length) return { hits: [...hits], extraIds };
  const superseded = new Set(own.map((x) => x.toks.join(' ')));
  const kept = hits.filter((h) => !superseded.has(key(inputSide(h, dir))));
  const merged: RetrievalHit[] = [];
  let k = 0;
  for (const h of kept) {
    const overlap = tokenOverlap(qTok, modelTokens(inputSide(h, dir)));
    while (k < own.length && own[k].overlap >= overlap) merged.push(asHit(own[k++], extraIds));
    merged.push(h);
  }
  while (k < own.length) merged.push(asHit(own[k++], extraIds));
  return { hits: merged.slice(0, Math.max(limit, 1)), extraIds };
}

function asHit(x: { e: ExtraExample; i: number; overlap: number }, ids: Set<string>): RetrievalHit {
  const id = extraId(x.e, x.i);
  ids.add(id);
  return { id, score: x.overlap, source: x.e.source, target: x.e.target, matchedTerms: [] };
}
