import {
  EXPLANATION_MAX_EXAMPLES,
  EXPLANATION_MAX_GLOSSARY,
  EXPLANATION_MAX_LEXICON,
  EXPLANATION_TERM_MAX,
  EXPLANATION_TEXT_MAX,
  type AppliedTerm,
  type TranslationExplanation,
} from '@gaia/contracts';

type Entry = Record<string, unknown>;

const isEntry = (x: unknown): x is Entry => typeof x === 'object' && x !== null;
const list = (x: unknown): Entry[] => (Array.isArray(x) ? x.filter(isEntry) : []);
const text = (x: unknown, max: number): string => (typeof x === 'string' ? x.slice(0, max) : '');
const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

/**
 * The `explanation` of an answer from its engine's provenance (each engine reports its own shape; both list the
 * examples they drew on as `{source, target, score}` pairs — the built-in engine the retrieved pairs that shaped the
 * chosen candidate, the LLM engine the retrieved pairs it put in its prompt — the built-in engine also its lexicon
 * entries `{source, target, prob}`), and the glossary terms the answer applied (`applied_terms` of both engines, as the
 * input writes them), cut to the contract's limits.
 */
export function toExplanation(provenance: unknown, applied: readonly AppliedTerm[] = []): TranslationExplanation {
  const p = isEntry(provenance) ? provenance : {};
  return {
    examples: list(p['examples'])
      .filter((e) => typeof e['source'] === 'string' && typeof e['target'] === 'string')
      .slice(0, EXPLANATION_MAX_EXAMPLES)
      .map((e) => ({ source: text(e['source'], EXPLANATION_TEXT_MAX), target: text(e['target'], EXPLANATION_TEXT_MAX), score: num(e['score']) })),
    lexicon: list(p['lexicon'])
      .filter((e) => typeof e['source'] === 'string' && typeof e['target'] === 'string')
      .slice(0, EXPLANATION_MAX_LEXICON)
      .map((e) => ({ source: text(e['source'], EXPLANATION_TERM_MAX), target: text(e['target'], EXPLANATION_TERM_MAX), prob: num(e['prob']) })),
    glossary: applied
      .slice(0, EXPLANATION_MAX_GLOSSARY)
      .map((g) => ({ term: g.term.slice(0, EXPLANATION_TERM_MAX), translation: g.translation.slice(0, EXPLANATION_TERM_MAX) })),
  };
}

/** A confidence on the wire is a number in 0..1. */
export const clampConfidence = (c: number): number => (Number.isFinite(c) ? Math.min(1, Math.max(0, c)) : 0);
