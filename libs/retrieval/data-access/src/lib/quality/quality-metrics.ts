import { corpusBleu, specificity } from '@gaia/engine';
import type { QualityScores } from '@gaia/contracts';

/**
 * chrF (β = 2), BLEU and the specificity margin of hypotheses against their references: chrF against the aligned
 * references minus the mean chrF against the same references shuffled with the engine's SHUFFLE_SEEDS (output that
 * ignores its source scores ≈ 0; bench/quality measures the same).
 */
export function scoreTranslations(hyps: readonly string[], refs: readonly string[]): QualityScores {
  const { chrf, margin } = specificity(hyps, refs);
  return { chrf, bleu: corpusBleu([...hyps], [...refs]), margin };
}
