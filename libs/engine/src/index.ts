export type {
  ParallelPair,
  Direction,
  TranslationEvent,
  RetrievalHit,
  Provenance,
  Candidate,
  LexiconUse,
  TranslateResult,
  UntranslatedSpan,
  ProvenanceExample,
  GlossaryTerm,
  AppliedTerm,
  ExtraExample,
  CalibrationPoint,
  ConfidenceCalibration,
  TranslateOptions,
} from './lib/types';
export { tokenize, detokenize, normalizeToken, foldToken, isWordToken, isLiteralToken, isNumberToken, capitalizedInside } from './lib/tokenize';
export { HybridIndex, INDEX_SCHEMA } from './lib/hybrid-index';
export { ArtifactWriter, ArtifactReader, ArtifactFormatError, StringTable, CODEC_VERSION } from './lib/artifact-codec';
export { trainAgentModel, trainAgentModelAsync } from './lib/model';
export type { AgentModel, ModelCalibration, ModelStats } from './lib/model';
export { serializeModel, deserializeModel, modelByteSize, modelWithinBytes, MODEL_SCHEMA } from './lib/model-codec';
export { summarizeCoreMemory, composeCoreMemory, splitCoreMemory, OWNER_NOTES_HEADING } from './lib/core-memory';
export { lookupLexicon, lexEntries } from './lib/lexicon';
export { modelTokens } from './lib/vocabulary';
export type { SideVocab } from './lib/vocabulary';
export type { AffixPattern } from './lib/affixes';
export type { PhraseTable, KeyLookup } from './lib/phrase-table';
export { KnLm } from './lib/lm';
export { trainAlignment, growDiagFinalAnd } from './lib/align';
export { Translator } from './lib/translator';
export type { TranslatorOptions, EngineTranslationEvent, TranslationPhase } from './lib/translator';
export type { DecoderWeights, ScoreWeights } from './lib/tuning';
export type { CarryKind } from './lib/unknown-words';
export { fitConfidenceCalibration, calibrateConfidence } from './lib/confidence-calibration';
export { corpusChrF, sentenceChrF, corpusBleu, sentenceBleu, specificity, shuffled, SHUFFLE_SEEDS } from './lib/metrics';
