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
export { tokenize, detokenize, normalizeToken, foldToken, isWordToken, isLiteralToken } from './lib/tokenize';
export { HybridIndex, INDEX_SCHEMA } from './lib/hybrid-index';
export { ArtifactWriter, ArtifactReader, ArtifactFormatError, StringTable, CODEC_VERSION } from './lib/artifact-codec';
export {
  trainAgentModel,
  trainAgentModelAsync,
  serializeModel,
  deserializeModel,
  summarizeCoreMemory,
  lookupLexicon,
  lexEntries,
  composeCoreMemory,
  splitCoreMemory,
  OWNER_NOTES_HEADING,
  modelTokens,
  modelByteSize,
  MODEL_SCHEMA,
} from './lib/model';
export type { AgentModel, ModelCalibration, ModelStats, AffixPattern, PhraseTable, SideVocab, KeyLookup } from './lib/model';
export { KnLm } from './lib/lm';
export { trainAlignment, growDiagFinalAnd } from './lib/align';
export { Translator } from './lib/translator';
export type { TranslatorOptions, DecoderWeights, ScoreWeights, CarryKind, EngineTranslationEvent, TranslationPhase } from './lib/translator';
export { fitConfidenceCalibration, calibrateConfidence } from './lib/confidence-calibration';
export { corpusChrF, sentenceChrF, corpusBleu, sentenceBleu } from './lib/metrics';
