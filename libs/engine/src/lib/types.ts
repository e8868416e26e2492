import type { EngineTranslationEvent } from '@gaia/contracts';

export interface ParallelPair {
  id: string;
  source: string;
  target: string;
}

/** forward = src_lang→tgt_lang of the agent; reverse = tgt_lang→src_lang. */
export type Direction = 'forward' | 'reverse';

export interface LexiconUse {
  source: string;
  target: string;
  prob: number;
}

export interface Provenance {
  /** ids of the translation-memory examples the final translation drew on */
  examples: { id: string; score: number; source: string; target: string }[];
  /** lexicon / phrase-table entries used */
  lexicon: LexiconUse[];
  /** strategy that produced the selected candidate */
  strategy: string;
}

/**
 * A part of the input the agent could not translate: left out of the translation, or copied unchanged when it may
 * be a name (an unknown capitalized word opening a sentence). Character offsets into the input text in UTF-16 code units (JavaScript string indices), `end` exclusive, and
 * the text of the span (`input.slice(start, end)`).
 */
export interface UntranslatedSpan {
  start: number;
  end: number;
  text: string;
}

export interface Candidate {
  text: string;
  strategy: string;
  /** model score (log domain, higher is better) */
  score: number;
  /** expected chrF agreement with the other candidates (MBR utility, 0..1) */
  mbr: number;
  features: Record<string, number>;
}

/** The streamed events of a translation: the shapes of `@gaia/contracts` (defined once there), with this engine's provenance. */
export type TranslationEvent = EngineTranslationEvent<Provenance>;

export interface RetrievalHit {
  id: string;
  score: number;
  source: string;
  target: string;
  matchedTerms: string[];
}

export interface TranslateResult {
  translation: string;
  /** 0..1; low when candidates disagree, the input is poorly covered, or parts are untranslated */
  confidence: number;
  /** input spans left untranslated (see UntranslatedSpan) */
  untranslated: UntranslatedSpan[];
  candidates: Candidate[];
  provenance: Provenance;
}
