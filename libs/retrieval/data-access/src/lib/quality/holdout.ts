import type { ParallelPair } from '@gaia/engine';
import { QUALITY_HOLDOUT_MAX, QUALITY_HOLDOUT_MIN, QUALITY_HOLDOUT_SHARE, QUALITY_MIN_PAIRS } from '@gaia/contracts';

/** The fixed seed of the held-out selection: the same pairs are held out at every build of the same data. */
export const HOLDOUT_SEED = 14;

/** How many of `pairCount` pairs are held out: 5 %, at least 20 and at most 500; none under 200 pairs (too small to measure). */
export function holdoutSize(pairCount: number): number {
  if (pairCount < QUALITY_MIN_PAIRS) return 0;
  return Math.min(QUALITY_HOLDOUT_MAX, Math.max(QUALITY_HOLDOUT_MIN, Math.round(pairCount * QUALITY_HOLDOUT_SHARE)));
}

/** FNV-1a (32-bit) of a string: a stable, order-independent rank for each pair. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Splits the pairs into a held-out set (the `holdoutSize` pairs of smallest seeded hash of their text, so the choice
 * does not depend on the order of the pairs and a pair stays held out while the data grows) and the pairs a model
 * may learn from: every other pair whose source is not a held-out source (a duplicate would leak the answer).
 */
export function selectHoldout(pairs: readonly ParallelPair[], seed = HOLDOUT_SEED): { heldOut: ParallelPair[]; train: ParallelPair[] } {
  const n = holdoutSize(pairs.length);
  if (!n) return { heldOut: [], train: [...pairs] };
  const ranked = pairs.map((p, i) => ({ i, h: fnv1a(`${seed}\u0000${p.source}\u0000${p.target}`) }));
  ranked.sort((a, b) => a.h - b.h || a.i - b.i);
  const chosen = new Set<number>();
  const sources = new Set<string>();
  for (const r of ranked) {
    if (chosen.size >= n) break;
    const source = pairs[r.i].source.trim();
    if (sources.has(source)) continue; // one held-out pair per source text
    chosen.add(r.i);
    sources.add(source);
  }
  const heldOut: ParallelPair[] = [];
  const train: ParallelPair[] = [];
  pairs.forEach((p, i) => {
    if (chosen.has(i)) heldOut.push(p);
    else if (!sources.has(p.source.trim())) train.push(p);
  });
  return { heldOut, train };
}
