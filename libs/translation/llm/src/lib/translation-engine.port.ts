import type { AppliedTerm, EngineKind, EngineTranslationEvent, TranslationProgressEvent } from '@gaia/contracts';
import type { Direction } from '@gaia/engine';
import type { RequestFeedback } from './glossary';
import { TokenUsage } from './token-usage';

/** The direction of a request, as the built-in engine defines it. */
export type { Direction } from '@gaia/engine';

/** The final event of an engine (`provenance`: the engine's own shape, never on the wire). */
export type TranslationCompleteEvent = Extract<EngineTranslationEvent, { type: 'translation_complete' }>;

/**
 * What an engine yields: the translation events, where `translation_complete` also carries the tokens
 * of the request (`usage`) and the engine that produced the final text (after a fallback: `builtin`).
 *
 * Token units: the LLM engine reports the API's usage fields (prompt/completion tokens, summed over all
 * calls of both phases); the built-in engine reports its own tokenizer's token counts of the input text
 * and of the final translation.
 */
export type EngineEvent =
  TranslationProgressEvent | (TranslationCompleteEvent & { usage: TokenUsage; engine: EngineKind; fallback_reason?: string; applied_terms?: AppliedTerm[] });

export interface RetrievedExample {
  id: string;
  source: string;
  target: string;
  score: number;
}

export interface LexiconEntry {
  term: string;
  translations: string[];
}

export interface DraftResult {
  translation: string;
  candidates: string[];
  confidence: number;
}

/**
 * An agent's knowledge as the engines use it, already oriented by `direction` (for `reverse`, sources
 * are in the agent's target language). Built by the translation data-access layer from the agent's
 * artifacts (learned model + hybrid index of `@gaia/engine`).
 */
export interface AgentKnowledge {
  /** Top-k example pairs from hybrid retrieval (the ephemeral memory); async so a remote index fits. */
  retrieve(text: string, direction: Direction, k: number): Promise<RetrievedExample[]>;
  /** Lexicon entries that match words of the input. */
  lexicon(text: string, direction: Direction): LexiconEntry[];
  /** The built-in engine's best translation and its K candidates. */
  draft(text: string, direction: Direction, k: number, feedback?: RequestFeedback): DraftResult;
  /** The built-in engine's streamed translation. */
  translate(
    text: string,
    direction: Direction,
    k: number,
    feedback?: RequestFeedback,
    opts?: { explain?: boolean },
  ): AsyncIterable<EngineTranslationEvent & { applied_terms?: AppliedTerm[] }>;
  /** Number of tokens of a text for the built-in engine's accounting. */
  countTokens(text: string): number;
}

/** An agent ready to translate: its settings and its loaded artifacts. */
export interface LoadedAgent {
  id: string;
  srcLang: string;
  tgtLang: string;
  engine: EngineKind;
  /** Owner notes (`core_memory` of the agent). */
  ownerNotes: string;
  /** Agent description (`custom_prompt`). */
  customPrompt: string;
  /** Summary learned from the data (core memory generated automatically). */
  learnedSummary: string;
  knowledge: AgentKnowledge;
  /** Approximate heap size, for the LRU memory budget. */
  approxBytes: number;
}

export interface TranslateRequest {
  text: string;
  direction: Direction;
  agent: LoadedAgent;
  /** K candidates; the engine default when absent. */
  k?: number;
  signal?: AbortSignal;
  /** The owner's corrections and glossary terms for this text, oriented in `direction` (none when absent). */
  feedback?: RequestFeedback;
  /** Detailed provenance (every example used, entries with probabilities, glossary terms) for the answer's explanation. */
  explain?: boolean;
}

/** Common interface of the built-in and the LLM engines. */
export interface TranslationEnginePort {
  readonly kind: EngineKind;
  translate(request: TranslateRequest): AsyncIterable<EngineEvent>;
}

export const BUILTIN_ENGINE = Symbol('BUILTIN_ENGINE');
export const LLM_ENGINE = Symbol('LLM_ENGINE');

/** Source/target language of a request in the given direction. */
export function languagesOf(agent: Pick<LoadedAgent, 'srcLang' | 'tgtLang'>, direction: Direction): { from: string; to: string } {
  return direction === 'forward' ? { from: agent.srcLang, to: agent.tgtLang } : { from: agent.tgtLang, to: agent.srcLang };
}
