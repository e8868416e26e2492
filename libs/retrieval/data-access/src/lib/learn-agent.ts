import { HybridIndex, serializeModel, summarizeCoreMemory, trainAgentModel, type AgentModel, type ParallelPair } from '@gaia/engine';
import type { LearnedQuality } from '@gaia/contracts';
import { pairsTextBytes, withinStoredBound } from './agent-artifacts.codec';
import { measureHoldout, type HeldOutTranslation } from './quality/measure-holdout';

export interface LearnInput {
  pairs: ParallelPair[];
  srcLang: string;
  tgtLang: string;
}

export interface LearnOutput {
  model: Uint8Array;
  index: Uint8Array;
  summary: string;
  stats: { srcVocab: number; tgtVocab: number; phrasePairs: number; charRatio: number; trainingMs: number };
}

/** The quality report of a version, measured after the version is ready (docs/adr/0006-quality-report-held-out-at-build.md). */
export interface QualityOutput {
  /** Held-out quality of this version (a model learned without a fixed-seed 5 % of the pairs, scored on them). */
  quality: LearnedQuality;
  /** The held-out pairs as that model translated them (raw confidence, sentence chrF): for the LLM A/B. */
  heldOut: HeldOutTranslation[];
  /** The model and index learned without the held-out pairs (for the LLM A/B); undefined when not measured. */
  heldOutArtifacts: { model: Uint8Array; index: Uint8Array } | undefined;
  /** The full model again, now with the fitted confidence calibration; undefined when not measured (nothing to calibrate). */
  calibratedModel: Uint8Array | undefined;
}

/** What a learning worker thread is given (learn.worker.ts): a part of an agent to learn from its pairs (JSONL), or a
 *  learned model to store within the storage bound (`withinStoredBound`). */
export type LearnWorkerData =
  { part: 'index' | 'model'; pairs: Uint8Array; srcLang: string; tgtLang: string } | { part: 'bound'; model: Uint8Array; index: Uint8Array; textBytes: number };

/** A learned agent whose quality report is still to be measured: `measureQuality` runs the held-out evaluation (once). */
export interface LearnedAgent {
  learned: LearnOutput;
  measureQuality: () => Promise<QualityOutput>;
}

/** Parses the JSONL pairs file that ingestion stores (`{"id","source","target"}` per line). */
export function parsePairsJsonl(bytes: Uint8Array): ParallelPair[] {
  const out: ParallelPair[] = [];
  const text = Buffer.from(bytes).toString('utf8');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (!line) continue;
    const o = JSON.parse(line) as { id?: unknown; source?: unknown; target?: unknown };
    if (typeof o.source === 'string' && typeof o.target === 'string') out.push({ id: String(o.id ?? out.length), source: o.source, target: o.target });
  }
  return out;
}

/** The hybrid index of the pairs (BM25 words + character n-grams + corpus vectors), serialized. */
export function buildIndexPart(pairs: ParallelPair[]): Uint8Array {
  const index = new HybridIndex();
  index.add(pairs);
  return index.serialize();
}

/**
 * The learned core memory (alignment, lexicons, phrase tables, language models), serialized, with its summary, and
 * the trained model itself (for `measureQualityPart`, which stores the calibration in it).
 */
export function learnModelPart(
  input: LearnInput,
  onProgress: (fraction: number, message: string) => void = () => undefined,
): { part: Omit<LearnOutput, 'index'>; model: AgentModel } {
  const t0 = Date.now();
  const model = trainAgentModel(input.pairs, { onProgress });
  return {
    model,
    part: {
      model: serializeModel(model),
      summary: summarizeCoreMemory(model, { srcLang: input.srcLang, tgtLang: input.tgtLang }),
      stats: {
        srcVocab: model.stats.srcVocab,
        tgtVocab: model.stats.tgtVocab,
        phrasePairs: model.stats.phrasePairs,
        charRatio: model.stats.charRatioCorpus,
        trainingMs: Date.now() - t0,
      },
    },
  };
}

/**
 * The quality of the version — a model learned without the held-out pairs, scored on them — and the full `model`
 * serialized again with the confidence calibration fitted on them. Runs after the version is ready (the second
 * training is the cost; docs/adr/0006-quality-report-held-out-at-build.md).
 */
export function measureQualityPart(
  pairs: readonly ParallelPair[],
  model: AgentModel,
  onProgress: (fraction: number, message: string) => void = () => undefined,
): QualityOutput {
  const measured = measureHoldout(pairs, onProgress);
  // stored with the model: the translator maps its raw confidence through it
  if (measured.calibration) model.calibration = measured.calibration;
  return {
    quality: measured.quality,
    heldOut: measured.translations,
    heldOutArtifacts: measured.artifacts,
    calibratedModel: measured.calibration ? serializeModel(model) : undefined,
  };
}

/** The quality report with its calibrated model written by `bound` (within the storage bound, as the model stored first). */
export async function withBoundedCalibratedModel(q: QualityOutput, bound: (model: Uint8Array) => Uint8Array | Promise<Uint8Array>): Promise<QualityOutput> {
  return q.calibratedModel ? { ...q, calibratedModel: await bound(q.calibratedModel) } : q;
}

/**
 * Learns the core memory and builds the hybrid index, one after the other (tests, CLI); the quality report on demand.
 * What is stored stays within the storage bound (`withinStoredBound`).
 */
export function learnAgent(input: LearnInput, onProgress: (fraction: number, message: string) => void = () => undefined): LearnedAgent {
  const t0 = Date.now();
  onProgress(0.02, 'Indexing examples');
  const index = buildIndexPart(input.pairs);
  onProgress(0.1, 'Learning core memory');
  const { part, model } = learnModelPart(input, (f, m) => onProgress(0.1 + 0.85 * f, m));
  const text = pairsTextBytes(input.pairs);
  const stored = withinStoredBound({ model: part.model, index }, text);
  onProgress(1, 'Learned');
  let quality: Promise<QualityOutput> | undefined;
  return {
    learned: { ...part, model: stored.model, index, stats: { ...part.stats, trainingMs: Date.now() - t0 } },
    measureQuality: () =>
      (quality ??= Promise.resolve().then(() =>
        withBoundedCalibratedModel(measureQualityPart(input.pairs, model), (m) => withinStoredBound({ model: m, index }, text).model),
      )),
  };
}
