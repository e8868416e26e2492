import {
  HybridIndex,
  Translator,
  deserializeModel,
  fitConfidenceCalibration,
  sentenceChrF,
  serializeModel,
  trainAgentModel,
  type ModelCalibration,
  type ParallelPair,
} from '@gaia/engine';
import type { LearnedQuality } from '@gaia/contracts';
import { pairsTextBytes, withinStoredBound } from '../agent-artifacts.codec';
import { selectHoldout } from './holdout';
import { scoreTranslations } from './quality-metrics';

/** One held-out pair translated by the model learned without it: the engine's raw confidence and the sentence chrF it earned. */
export interface HeldOutTranslation {
  source: string;
  target: string;
  hypothesis: string;
  confidence: number;
  chrf: number;
}

export interface HoldoutMeasurement {
  quality: LearnedQuality;
  /** Per held-out pair (for the LLM A/B); empty when too small to measure. */
  translations: HeldOutTranslation[];
  /** Raw confidence → expected chrF in both directions, fitted on the held-out pairs (undefined: too small to measure). */
  calibration: ModelCalibration | undefined;
  /** The model and index learned without the held-out pairs (serialized), for the LLM A/B; undefined when not measured. */
  artifacts: { model: Uint8Array; index: Uint8Array } | undefined;
}

/**
 * The quality of an agent version: holds out a fixed-seed 5 % of the pairs, learns a model and an index from the
 * rest, translates the held-out sources with them and scores the translations against the held-out targets; fits the
 * confidence calibration of each direction on the (raw confidence, sentence chrF) of the held-out pairs. The model
 * translates as a build stores it: written within the storage bound (`withinStoredBound`) and read back.
 */
export function measureHoldout(pairs: readonly ParallelPair[], onProgress: (fraction: number, message: string) => void = () => undefined): HoldoutMeasurement {
  const t0 = Date.now();
  const { heldOut, train } = selectHoldout(pairs);
  if (!heldOut.length)
    return { quality: { measured: false, heldOut: 0, scores: null, evaluationMs: 0 }, translations: [], calibration: undefined, artifacts: undefined };
  onProgress(0, 'Learning a model without the held-out pairs');
  const model = trainAgentModel(train, { onProgress: (f, m) => onProgress(0.7 * f, m) });
  const index = new HybridIndex();
  index.add(train);
  const artifacts = withinStoredBound({ model: serializeModel(model), index: index.serialize() }, pairsTextBytes(train));
  const translator = new Translator(deserializeModel(artifacts.model), index);
  const translations: HeldOutTranslation[] = [];
  const reverse: { raw: number; chrf: number }[] = [];
  heldOut.forEach((p, i) => {
    const r = translator.translateText(p.source);
    translations.push({
      source: p.source,
      target: p.target,
      hypothesis: r.translation,
      confidence: r.rawConfidence,
      chrf: sentenceChrF(r.translation, p.target),
    });
    const back = translator.translateText(p.target, { direction: 'reverse' });
    reverse.push({ raw: back.rawConfidence, chrf: sentenceChrF(back.translation, p.source) });
    onProgress(0.7 + (0.3 * (i + 1)) / heldOut.length, 'Measuring quality on held-out pairs');
  });
  const calibration: ModelCalibration = {
    forward: fitConfidenceCalibration(translations.map((t) => ({ raw: t.confidence, chrf: t.chrf }))),
    reverse: fitConfidenceCalibration(reverse),
  };
  const scores = scoreTranslations(
    translations.map((t) => t.hypothesis),
    translations.map((t) => t.target),
  );
  return {
    quality: { measured: true, heldOut: heldOut.length, scores, evaluationMs: Date.now() - t0 },
    translations,
    calibration,
    artifacts,
  };
}
