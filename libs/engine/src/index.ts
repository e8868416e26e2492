export type {
  ParallelPair,
  Direction,
  TranslationEvent,
  RetrievalHit,
  Provenance,
  Candidate,
  LexiconUse,
  TranslateResult,
} from './lib/types';
export { tokenize, detokenize, normalizeToken, foldToken, isWordToken } from './lib/tokenize';
export { HybridIndex } from './lib/hybrid-index';
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
} from './lib/model';
export type { AgentModel, ModelStats, AffixPattern, PhraseTable, SideVocab } from './lib/model';
export { KnLm } from './lib/lm';
export { trainAlignment, growDiagFinalAnd } from './lib/align';
export { Translator } from './lib/translator';
export type { TranslatorOptions, DecoderWeights, ScoreWeights } from './lib/translator';
export { corpusChrF, sentenceChrF, corpusBleu, sentenceBleu } from './lib/metrics';
