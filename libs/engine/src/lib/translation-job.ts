/**
 * A request on its way through the phases: split into lines (each translated on its own, blank lines kept), lines
 * answered without translating (an extra example matching exactly), and the lines' results joined back.
 */
import type { CandidateOrigin, Draft } from './candidates';
import { extraId } from './extra-examples';
import { appliedTerms, containsForced, findForcedSpans, ForcedSpan } from './glossary';
import type { PieceInput } from './subword';
import { tokenize } from './tokenize';
import type { AppliedTerm, Candidate, ExtraExample, RetrievalHit, TranslateOptions, TranslateResult, UntranslatedSpan } from './types';
import { modelTokens } from './vocabulary';

/** Strategy of an answer that is an extra example's other side (the input equals its side). */
const EXACT_EXTRA_STRATEGY = 'extra-example';

/** One line of input through the phases. */
export interface LineJob {
  text: string;
  dir: 0 | 1;
  opts: TranslateOptions | undefined;
  surface: string[];
  qTok: string[];
  forced: ForcedSpan[];
  /** the line in the model's pieces (subword.ts): tokens, written forms and glossary spans the decoder works on */
  pieces: PieceInput;
  hits: RetrievalHit[];
  extraIds: Set<string>;
  drafts: Draft[];
  candidates: Candidate[];
  /** per candidate (same order) */
  origins: CandidateOrigin[];
  /** chrF of every ordered pair of candidates, `[i * K + j]` (phase 2; read again for the confidence) */
  agreement: Float64Array | null;
}

/** A line to translate, or one already answered. */
export type LineWork = { job: LineJob } | { result: TranslateResult };

/** A request split into lines (one line when it has no line break or matches an extra example whole). */
export interface Plan {
  text: string;
  lines: string[];
  /** per line; null for a blank line of a multi-line text */
  work: (LineWork | null)[];
}

export function planJobs(plan: Plan): LineJob[] {
  return plan.work.flatMap((w) => (w && 'job' in w ? [w.job] : []));
}

export function emptyResult(): TranslateResult {
  return {
    translation: '',
    confidence: 0,
    rawConfidence: 0,
    appliedTerms: [],
    untranslated: [],
    candidates: [],
    provenance: { examples: [], lexicon: [], strategy: 'empty' },
  };
}

/** The answer for an input identical to an extra example's side: its other side, exactly. */
export function exactExampleResult(text: string, ex: ExtraExample, dir: 0 | 1, opts: TranslateOptions | undefined): TranslateResult {
  const translation = dir === 0 ? ex.target : ex.source;
  const surface = tokenize(text);
  const out = modelTokens(translation);
  const applied = appliedTerms(
    text,
    surface,
    findForcedSpans(surface, opts?.glossary, dir).filter((f) => containsForced(out, f)),
  );
  const id = extraId(ex, opts?.extraExamples?.indexOf(ex) ?? 0);
  return {
    translation,
    confidence: 1,
    rawConfidence: 1,
    appliedTerms: applied,
    untranslated: [],
    candidates: [{ text: translation, strategy: EXACT_EXTRA_STRATEGY, score: 0, mbr: 1, features: {} }],
    provenance: {
      strategy: EXACT_EXTRA_STRATEGY,
      examples: [{ id, score: 1, source: ex.source, target: ex.target, ...(opts?.explain ? { origin: 'extra' as const } : {}) }],
      lexicon: [],
      ...(opts?.explain ? { glossary: applied } : {}),
    },
  };
}

/** The result of a plan whose lines are all done (one result, or the lines' results joined line by line). */
export function joinLines(plan: Plan, parts: (TranslateResult | null)[]): TranslateResult {
  if (plan.lines.length === 1) return parts[0] ?? emptyResult();
  const done = parts.filter((x): x is TranslateResult => !!x);
  const untranslated: UntranslatedSpan[] = [];
  const terms: AppliedTerm[] = [];
  let offset = 0;
  const sep = /\r?\n/g;
  plan.lines.forEach((l, i) => {
    for (const sp of parts[i]?.untranslated ?? []) untranslated.push({ ...sp, start: sp.start + offset, end: sp.end + offset });
    for (const t of parts[i]?.appliedTerms ?? []) terms.push({ ...t, start: t.start + offset, end: t.end + offset });
    sep.lastIndex = offset + l.length;
    const m = sep.exec(plan.text);
    offset = m ? m.index + m[0].length : plan.text.length;
  });
  const mean = (f: (r: TranslateResult) => number): number => (done.length ? done.reduce((a, b) => a + f(b), 0) / done.length : 0);
  const explained = done.some((d) => d.provenance.glossary);
  return {
    translation: parts.map((x) => (x ? x.translation : '')).join('\n'),
    confidence: mean((r) => r.confidence),
    rawConfidence: mean((r) => r.rawConfidence),
    appliedTerms: terms,
    untranslated,
    candidates: done.flatMap((d) => d.candidates),
    provenance: {
      examples: done.flatMap((d) => d.provenance.examples),
      lexicon: done.flatMap((d) => d.provenance.lexicon),
      strategy: 'per-line',
      ...(explained ? { glossary: terms } : {}),
    },
  };
}
