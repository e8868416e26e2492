import { HybridIndex, serializeModel, summarizeCoreMemory, trainAgentModel, type ParallelPair } from '@gaia/engine';
import type { LearnedQuality } from '@gaia/contracts';
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
  /** Held-out quality of this version (a model learned without a fixed-seed 5 % of the pairs, scored on them). */
  quality: LearnedQuality;
  /** The held-out pairs as that model translated them (raw confidence, sentence chrF): for the LLM A/B. */
  heldOut: HeldOutTranslation[];
  /** The model and index learned without the held-out pairs (for the LLM A/B); undefined when not measured. */
  heldOutArtifacts: { model: Uint8Array; index: Uint8Array } | undefined;
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

/** Share of the model part's progress spent measuring the held-out quality. */
const EVALUATION_SHARE = 0.4;

/**
 * The learned core memory (alignment, lexicons, phrase tables, language models), serialized, with its summary.
 * First the quality of the version — a model learned without the held-out pairs, scored on them — then the core
 * memory learned from every pair. Both trainings run one after the other in the same worker; the measured cost and
 * the choice are in docs/adr/0006-quality-report-held-out-at-build.md.
 */
export function learnModelPart(input: LearnInput, onProgress: (fraction: number, message: string) => void = () => undefined): Omit<LearnOutput, 'index'> {
  const t0 = Date.now();
  const measured = measureHoldout(input.pairs, (f, m) => onProgress(EVALUATION_SHARE * f, m));
  const share = measured.quality.measured ? EVALUATION_SHARE : 0;
  const model = trainAgentModel(input.pairs, { onProgress: (f, m) => onProgress(share + (1 - share) * f, m) });
  // stored with the model: the translator maps its raw confidence through it
  if (measured.calibration) model.calibration = measured.calibration;
  return {
    model: serializeModel(model),
    summary: summarizeCoreMemory(model, { srcLang: input.srcLang, tgtLang: input.tgtLang }),
    stats: {
      srcVocab: model.stats.srcVocab,
      tgtVocab: model.stats.tgtVocab,
      phrasePairs: model.stats.phrasePairs,
      charRatio: model.stats.charRatioCorpus,
      trainingMs: Date.now() - t0,
    },
    quality: measured.quality,
    heldOut: measured.translations,
    heldOutArtifacts: measured.artifacts,
  };
}

/** Learns the core memory and builds the hybrid index, one after the other (tests, CLI). */
export function learnAgent(input: LearnInput, onProgress: (fraction: number, message: string) => void = () => undefined): LearnOutput {
  const t0 = Date.now();
  onProgress(0.02, 'Indexing examples');
  const index = buildIndexPart(input.pairs);
  onProgress(0.1, 'Learning core memory');
  const part = learnModelPart(input, (f, m) => onProgress(0.1 + 0.85 * f, m));
  onProgress(1, 'Learned');
  return { ...part, index, stats: { ...part.stats, trainingMs: Date.now() - t0 } };
}
