/**
 * Phase 1, candidates: up to K drafts from different strategies — the decoder's n-best (decoder.ts), fuzzy-match repairs
 * of near-duplicate examples (fuzzy-match-repair.ts), memory adaptations of the other nearest examples
 * (memory-adaptation.ts) and the nearest examples themselves — with paired punctuation the input lacks and doubled
 * punctuation removed, duplicates dropped (the first strategy kept).
 */
import type { PhraseDecoder } from './decoder';
import { exactExample, tokenOverlap } from './extra-examples';
import { repairFuzzyMatch } from './fuzzy-match-repair';
import type { ForcedSpan } from './glossary';
import { adaptExample, exampleTokens } from './memory-adaptation';
import type { AgentModel } from './model';
import { isWordToken } from './tokenize';
import { ADAPTED_EXAMPLES, MIN_ADAPTATION_OVERLAP } from './tuning';
import type { LexiconUse, RetrievalHit } from './types';

/** A draft translation of phase 1: model tokens, the strategy, phrase entries used, the example it came from. */
export interface Draft {
  tokens: string[];
  strategy: string;
  used: LexiconUse[];
  hit?: RetrievalHit;
  /** share of the input's tokens the example shares (memory adaptation, nearest example) */
  overlap?: number;
  /** a nearest example whose input side is the input, word for word (its translation is the answer) */
  exact?: boolean;
}

/** Where a scored candidate came from (kept beside the public Candidate, for provenance). */
export interface CandidateOrigin {
  used: LexiconUse[];
  hit?: RetrievalHit;
}

/** Settings of phase 1 (from TranslatorOptions and the request). */
export interface DraftSettings {
  /** drafts kept */
  k: number;
  /** decoder hypotheses */
  nbest: number;
  /** nearest examples offered as they are */
  rawExamples: number;
}

/** The drafts for one line: input tokens normalized (`qTok`) and as written (`surface`), retrieved examples `hits`. */
export function draftCandidates(
  model: AgentModel,
  decoder: PhraseDecoder,
  settings: DraftSettings,
  line: { text: string; qTok: string[]; surface: string[]; dir: 0 | 1; hits: readonly RetrievalHit[]; forced: readonly ForcedSpan[] },
): Draft[] {
  const { text, qTok, surface, dir, hits, forced } = line;
  const raw: Draft[] = [];
  const dec = decoder.decode(qTok, surface, dir, settings.nbest, forced);
  for (const d of dec) raw.push({ tokens: d.tokens, strategy: 'phrase-decoder', used: d.used });
  // each example is tokenized once for all strategies (its tokens are only read)
  const examples = hits.slice(0, Math.max(ADAPTED_EXAMPLES, settings.rawExamples)).map((h) => exampleTokens(model, h, dir));
  hits.slice(0, ADAPTED_EXAMPLES).forEach((h, x) => {
    // a near duplicate is repaired span by span in place; other examples are adapted
    const fix = repairFuzzyMatch(model, decoder, qTok, surface, h, dir, forced, examples[x]);
    if (fix) {
      raw.push({ tokens: fix.tokens, strategy: 'fuzzy-match-repair', used: [], hit: h, overlap: fix.overlap });
      return;
    }
    const ad = adaptExample(model, decoder, qTok, surface, h, dir, forced, examples[x], MIN_ADAPTATION_OVERLAP);
    if (ad) raw.push({ tokens: ad.tokens, strategy: 'memory-adaptation', used: [], hit: h, overlap: ad.overlap });
  });
  hits
    .slice(0, settings.rawExamples)
    .forEach((h, x) => raw.push({ tokens: [...examples[x].O], strategy: 'nearest-example', used: [], hit: h, overlap: tokenOverlap(qTok, examples[x].H) }));
  // a retrieved example of the input itself, word for word, comes first (of drafts writing the same, the first is kept)
  const exact = exactExample(text, hits, dir);
  if (exact) {
    const at = hits.indexOf(exact);
    const own = at < examples.length ? examples[at] : exampleTokens(model, exact, dir);
    raw.unshift({ tokens: [...own.O], strategy: 'nearest-example', used: [], hit: exact, overlap: tokenOverlap(qTok, own.H), exact: true });
  }
  // punctuation that pairs (quotes, brackets) only appears in the output if the input has it
  const PAIRED = /^["“”«»„‟'‘’()[\]{}]$/;
  const inputPaired = new Set(surface.filter((t) => PAIRED.test(t)));
  for (const r of raw) {
    if (r.strategy === 'nearest-example') continue;
    r.tokens = r.tokens.filter((t) => !PAIRED.test(t) || inputPaired.has(t));
    // no doubled punctuation ("día..") unless the input has it
    r.tokens = r.tokens.filter(
      (t, i) => i === 0 || t !== r.tokens[i - 1] || isWordToken(t) || surface.some((x, j) => j > 0 && x === t && surface[j - 1] === t),
    );
  }
  const uniq = new Map<string, Draft>();
  for (const r of raw) {
    const key = r.tokens.join(' ');
    if (!uniq.has(key)) uniq.set(key, r);
  }
  return [...uniq.values()].slice(0, Math.max(settings.k, 1));
}
