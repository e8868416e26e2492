import type { EngineTranslationEvent, UntranslatedSpan } from '@gaia/contracts';

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

/** An example that shaped an answer: from the agent's memory, or supplied by the caller (`extraExamples`). */
export interface ProvenanceExample {
  id: string;
  score: number;
  source: string;
  target: string;
  /** with `explain`: `memory` (the agent's retrieved pairs) or `extra` (the caller's `extraExamples`) */
  origin?: 'memory' | 'extra';
}

export interface Provenance {
  /** the translation-memory examples the final translation drew on */
  examples: ProvenanceExample[];
  /** lexicon / phrase-table entries used (with `explain`: their probabilities φ(t|s) or p(t|s), 1 for glossary) */
  lexicon: LexiconUse[];
  /** strategy that produced the selected candidate */
  strategy: string;
  /** with `explain`: the glossary terms forced into the answer */
  glossary?: AppliedTerm[];
}

/**
 * A required translation (owner's glossary). `source` is in the agent's source language and `target` in its target
 * language, like a ParallelPair: forward requests force `target` for `source`, reverse requests `source` for `target`.
 * Matching is on whole tokens, case-insensitive unless `caseSensitive`; longer terms win over shorter overlapping ones.
 */
export interface GlossaryTerm {
  source: string;
  target: string;
  caseSensitive?: boolean;
}

/** A glossary term found in the input and forced into the answer; `start`/`end`: UTF-16 offsets into the input. */
export interface AppliedTerm {
  source: string;
  target: string;
  start: number;
  end: number;
}

/**
 * A pair supplied with the request (the owner's corrections), oriented like a ParallelPair. Searched together with
 * the agent's retrieved examples; an input identical to its side (normalized tokens) is answered with the other side
 * exactly.
 */
export interface ExtraExample {
  source: string;
  target: string;
  /** reported in provenance (default `extra-<position>`) */
  id?: string;
}

/** A held-out observation: the engine's raw confidence for an answer and the answer's chrF against the reference. */
export interface CalibrationPoint {
  raw: number;
  chrf: number;
}

/**
 * Monotone (non-decreasing) map from raw confidence to the expected chrF of the answer, fitted on held-out pairs
 * (`fitConfidenceCalibration`): piecewise linear through `knots` ([raw, calibrated], raw ascending).
 */
export interface ConfidenceCalibration {
  knots: [number, number][];
  /** held-out points it was fitted on */
  points: number;
}

/** Per-call options of `Translator.translateText` / `translate` / `candidates`. */
export interface TranslateOptions {
  direction?: Direction;
  /** candidates built (default: the translator's `k`) */
  k?: number;
  /** nearest pairs retrieved elsewhere (a remote retrieval index) instead of the translator's index */
  examples?: RetrievalHit[];
  glossary?: GlossaryTerm[];
  extraExamples?: ExtraExample[];
  /** detailed provenance: every example used with its origin, entries with probabilities, glossary terms */
  explain?: boolean;
  /** maps raw confidence for this call (default: the translator's, else the model's for the direction) */
  calibration?: ConfidenceCalibration;
}

/**
 * A part of the input the agent could not translate (left out, or copied unchanged when it may be a name): the
 * contract's shape, UTF-16 offsets into the input, `end` exclusive, and `text` = `input.slice(start, end)`.
 */
export type { UntranslatedSpan };

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
  /** 0..1; the raw confidence mapped through the calibration when there is one (expected chrF), else the raw one */
  confidence: number;
  /** 0..1; low when candidates disagree, the input is poorly covered, or parts are untranslated */
  rawConfidence: number;
  /** glossary terms found in the input and present in the translation */
  appliedTerms: AppliedTerm[];
  /** input spans left untranslated (see UntranslatedSpan) */
  untranslated: UntranslatedSpan[];
  candidates: Candidate[];
  provenance: Provenance;
}
