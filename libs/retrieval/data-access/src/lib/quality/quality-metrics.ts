import { corpusBleu, corpusChrF } from '@gaia/engine';
import type { QualityScores } from '@gaia/contracts';

/** The fixed shuffles of the specificity margin (the same as bench/quality/measures.cjs). */
export const SHUFFLE_SEEDS = [1, 2, 3, 4, 5] as const;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle with a seeded generator (bench's `shuffled`). */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const rnd = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * chrF (β = 2), BLEU and the specificity margin of hypotheses against their references: chrF against the aligned
 * references minus the mean chrF against the same references shuffled with SHUFFLE_SEEDS (output that ignores its
 * source scores ≈ 0).
 */
export function scoreTranslations(hyps: readonly string[], refs: readonly string[]): QualityScores {
  const chrf = corpusChrF([...hyps], [...refs]);
  const mean = SHUFFLE_SEEDS.reduce((sum, seed) => sum + corpusChrF([...hyps], shuffled(refs, seed)), 0) / SHUFFLE_SEEDS.length;
  return { chrf, bleu: corpusBleu([...hyps], [...refs]), margin: chrf - mean };
}
