/**
 * Phase 2, validate and refine: every draft is scored (LM, lexical probability both ways, source coverage, length
 * ratio, target-language consistency, its last word: sentence-ends.ts), written out (casing, glossary forms), weighted
 * by its expected chrF agreement with the others (minimum Bayes risk); the answer is an example of the input itself
 * when one was retrieved, else the selectable candidate of highest MBR utility plus a share of its model score.
 */
import type { CandidateOrigin, Draft } from './candidates';
import { lmWordId, sentenceCharRatio } from './decoder';
import { containsForced, ForcedSpan, restoreTermForms } from './glossary';
import { pairwiseChrF } from './chrf-matrix';
import type { AgentModel } from './model';
import { lastWordAt, type SentenceEnds, sentenceEndsOf } from './sentence-ends';
import { isPiece, joinPieces, writtenLength } from './subword';
import { detokenize, endsWithMark, isWordToken, normalizeToken, repeatsWord } from './tokenize';
import {
  COPIED_WORD_PROB_FORWARD,
  COPIED_WORD_PROB_REVERSE,
  COVERED_MIN_PROB,
  FEATURE_PROB_FLOOR,
  LENGTH_MIN_LOG_STD,
  OPENING_MARK_MIN_SHARE,
  ScoreWeights,
} from './tuning';
import type { Candidate } from './types';
import type { UnknownWords } from './unknown-words';
import { type SideVocab, wordCount } from './vocabulary';

/** Settings of phase 2 (from TranslatorOptions). */
export interface RefineSettings {
  weights: ScoreWeights;
  /** preferred output length relative to the learned length ratio, per direction */
  lengthTargets: [number, number];
  /** softmax temperature turning scores into MBR weights */
  mbrTemperature: number;
  /** weight of the model score beside the MBR utility in the final choice */
  mbrScoreWeight: number;
  /** a nearest example is selectable only when it shares at least this share of the input's tokens */
  nearDuplicate: number;
}

/** Capitalizes the output's first letter when the input's first letter is upper case. */
export function capitalizeLike(out: string, src: string): string {
  const m = /\p{L}/u.exec(src);
  const first = m ? m[0] : undefined;
  const i = out.search(/\p{L}/u);
  if (first && first !== first.toLowerCase() && i >= 0) return out.slice(0, i) + out[i].toUpperCase() + out.slice(i + 1);
  return out;
}

/** Punctuation that never opens a sentence: at the start of an output it followed a word that was left out. */
const ORPHANED_OPENING = new Set([',', ';', ':']);

/**
 * Output tokens without the punctuation they start with when the input does not start with it: what followed an
 * input word that was left out ('bueno, mi madre …' with 'bueno' untranslated came out ', my mother …'); an output of
 * punctuation alone is kept.
 */
function withoutOrphanedOpening(tokens: string[], inputFirst: string | undefined): string[] {
  let i = 0;
  while (i < tokens.length && ORPHANED_OPENING.has(tokens[i]) && tokens[i] !== inputFirst) i++;
  // an output of punctuation alone stays as it is
  return i && i < tokens.length ? tokens.slice(i) : tokens;
}

/**
 * Output tokens without a full stop right after a closing question or exclamation mark ('… Augusta?.'), unless the
 * input ends so too: the language model likes a sentence to end with a full stop, and a phrase brought one in.
 */
export function withoutDoubledEnding(tokens: string[], input: readonly string[]): string[] {
  const n = tokens.length;
  if (n < 2 || tokens[n - 1] !== '.' || (tokens[n - 2] !== '?' && tokens[n - 2] !== '!')) return tokens;
  const m = input.length;
  return m >= 2 && input[m - 1] === '.' && input[m - 2] === tokens[n - 2] ? tokens : tokens.slice(0, n - 1);
}

/** The closing marks a language may mirror with an opening one at the start of the sentence (Spanish '¿ … ?', '¡ … !'). */
const OPENING_MARKS: ReadonlyMap<string, string> = new Map([
  ['?', '¿'],
  ['!', '¡'],
]);
/** Marks that close a sentence (a run of them closes it once). */
const SENTENCE_CLOSING = new Set(['.', '?', '!', '…']);

/**
 * The closing marks ('?', '!') whose opening mark ('¿', '¡') a side's data writes at least OPENING_MARK_MIN_SHARE times
 * as often as the closing one: the output language opens such sentences with it (Spanish does).
 */
export function openedMarks(side: SideVocab): Set<string> {
  return new Set(
    [...OPENING_MARKS]
      .filter(([close, open]) => wordCount(side, close) > 0 && wordCount(side, open) >= OPENING_MARK_MIN_SHARE * wordCount(side, close))
      .map(([close]) => close),
  );
}

/** The closing question and exclamation marks a side's data writes at all. */
export function writtenClosingMarks(side: SideVocab): Set<string> {
  return new Set([...OPENING_MARKS.keys()].filter((close) => wordCount(side, close) > 0));
}

/**
 * Output tokens closed by the input's closing question or exclamation mark where the answer closes with a full stop
 * instead (a question came out '¿Dices … la causa.': a phrase of its last words brought the full stop of a statement),
 * when the output language's data writes that mark (`written`). The tokens themselves otherwise.
 */
export function withClosingOfInput(tokens: string[], input: readonly string[], written: ReadonlySet<string>): string[] {
  const close = input[input.length - 1];
  const n = tokens.length;
  if (close === undefined || !written.has(close) || n < 2 || tokens[n - 1] !== '.') return tokens;
  return [...tokens.slice(0, n - 1), close];
}

/**
 * Output tokens with the opening mark written before each sentence that closes with a mark of `opened` and has none
 * ('Quedó en Augusta ?' → '¿ Quedó en Augusta ?' in Spanish): an input language without opening marks gives the
 * decoder nothing to translate into one. The tokens themselves when nothing is missing.
 */
export function withOpeningMarks(tokens: string[], opened: ReadonlySet<string>): string[] {
  if (!tokens.some((t) => opened.has(t))) return tokens;
  const out: string[] = [];
  // where the sentence being copied starts in `out`
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    // a run of closing marks closes one sentence: its first mark decides, and the next word starts another
    const afterClose = i > 0 && SENTENCE_CLOSING.has(tokens[i - 1]);
    if (afterClose && !SENTENCE_CLOSING.has(t)) start = out.length;
    const open = OPENING_MARKS.get(t);
    if (open && !afterClose && opened.has(t) && out.length > start && !out.slice(start).includes(open)) out.splice(start, 0, open);
    out.push(t);
  }
  return out.length === tokens.length ? tokens : out;
}

/** A line's input as the features of its candidates read it. */
export interface LineInput {
  /** the input's word tokens, and their ids in the input vocabulary (back-offs for unknown words; 0: none) */
  qWords: string[];
  qIds: number[];
  /** per output word id, its best lexical probability given one of the input words */
  fwdMax: Map<number, number>;
  /** the input's tokens */
  qSet: Set<string>;
  /** whether the input writes a word twice in a row (an answer then may too) */
  repeats: boolean;
  /** whether the input ends with a punctuation mark (an answer left open then costs) */
  closes: boolean;
}

export class CandidateScorer {
  private readonly sw: ScoreWeights;
  private readonly lengthTargets: [number, number];
  private readonly temp: number;
  private readonly mbrScoreWeight: number;
  private readonly nearDuplicate: number;
  /** per direction: where its output language ends sentences */
  private readonly ends: [SentenceEnds, SentenceEnds];
  /** per direction: the closing marks its output language mirrors at the start of the sentence (`openedMarks`) */
  private readonly opened: [Set<string>, Set<string>];
  /** per direction: the closing question and exclamation marks its output language writes (`writtenClosingMarks`) */
  private readonly written: [Set<string>, Set<string>];

  constructor(
    private readonly model: AgentModel,
    private readonly words: UnknownWords,
    settings: RefineSettings,
  ) {
    this.sw = settings.weights;
    this.lengthTargets = settings.lengthTargets;
    this.temp = settings.mbrTemperature;
    this.mbrScoreWeight = settings.mbrScoreWeight;
    this.nearDuplicate = settings.nearDuplicate;
    this.ends = [sentenceEndsOf(model.sides[1]), sentenceEndsOf(model.sides[0])];
    this.opened = [openedMarks(model.sides[1]), openedMarks(model.sides[0])];
    this.written = [writtenClosingMarks(model.sides[1]), writtenClosingMarks(model.sides[0])];
  }

  /**
   * The drafts as scored candidates (same order) with their MBR utilities, where each came from, and the chrF of
   * every ordered pair of candidates (`agreement[i * K + j]`, candidate i against j; confidence.ts reads it too).
   */
  score(
    text: string,
    qTok: string[],
    dir: 0 | 1,
    forced: readonly ForcedSpan[],
    drafts: readonly Draft[],
  ): { candidates: Candidate[]; origins: CandidateOrigin[]; agreement: Float64Array } {
    const srcChars = text.replace(/\s+/g, '').length;
    const cands: Candidate[] = [];
    const origins: CandidateOrigin[] = [];
    const line = this.lineInput(qTok, dir);
    for (const r of drafts) {
      const f = this.features(qTok, r.tokens, dir, srcChars, line);
      if (r.overlap !== undefined) f.overlap = r.overlap;
      const ended = withoutDoubledEnding(withoutOrphanedOpening(joinPieces(restoreTermForms(this.recase(r.tokens, dir), forced)), qTok[0]), qTok);
      const shown = withOpeningMarks(withClosingOfInput(ended, qTok, this.written[dir]), this.opened[dir]);
      cands.push({ text: capitalizeLike(detokenize(shown), text), strategy: r.strategy, score: this.combine(f), mbr: 0, features: f });
      origins.push({ used: r.used, hit: r.hit });
    }
    // MBR with chrF utility
    const K = cands.length;
    const agreement = pairwiseChrF(cands.map((c) => c.text));
    const maxS = Math.max(...cands.map((c) => c.score));
    const p = cands.map((c) => Math.exp((c.score - maxS) / this.temp));
    const Z = p.reduce((a, b) => a + b, 0) || 1;
    for (let i = 0; i < K; i++) {
      let u = 0;
      for (let j = 0; j < K; j++) u += (p[j] / Z) * (i === j ? 1 : agreement[i * K + j]);
      cands[i].mbr = u;
    }
    return { candidates: cands, origins, agreement };
  }

  /** Index of the answer among the candidates (drafts: the same order). */
  select(candidates: readonly Candidate[], drafts: readonly Draft[], forced: readonly ForcedSpan[]): number {
    // an example is a translation of the input only when it is a near duplicate of it; other examples inform the
    // MBR choice but are never the answer (the answer is then the best partial translation, marked as such);
    // every answer carries the glossary's required terms
    const selectable = (i: number): boolean =>
      (candidates[i].strategy !== 'nearest-example' || (candidates[i].features.overlap ?? 0) >= this.nearDuplicate) &&
      forced.every((f) => containsForced(drafts[i].tokens, f));
    // a sentence of the agent's data, word for word, is answered with the translation the data gives it
    const exact = candidates.findIndex((_, i) => drafts[i].exact && selectable(i));
    if (exact >= 0) return exact;
    const maxS = Math.max(...candidates.filter((_, i) => selectable(i)).map((c) => c.score));
    const gain = (c: Candidate): number => c.mbr + this.mbrScoreWeight * (c.score - maxS);
    let bi = -1;
    for (let i = 0; i < candidates.length; i++) if (selectable(i) && (bi < 0 || gain(candidates[i]) > gain(candidates[bi]))) bi = i;
    return Math.max(bi, 0);
  }

  /** What the features of every candidate of a line read of its input: computed once per line. */
  lineInput(qTok: readonly string[], dir: 0 | 1): LineInput {
    const m = this.model;
    const qWords = qTok.filter(isWordToken);
    const qIds = qWords.map((w) => this.words.inputId(w, dir));
    // lexical p(t|s): for each output word the best source word
    const fwdMax = new Map<number, number>();
    const lexF = m.lex[dir];
    for (const id of qIds) {
      if (!id) continue;
      for (let x = lexF.off[id]; x < lexF.off[id + 1]; x++) {
        const o = lexF.ids[x];
        if ((fwdMax.get(o) ?? 0) < lexF.probs[x]) fwdMax.set(o, lexF.probs[x]);
      }
    }
    return { qWords, qIds, fwdMax, qSet: new Set(qTok), repeats: repeatsWord(qTok), closes: endsWithMark(qTok) };
  }

  features(qTok: string[], cand: string[], dir: 0 | 1, srcChars: number, line: LineInput = this.lineInput(qTok, dir)): Record<string, number> {
    const m = this.model;
    const outV = m.sides[dir === 0 ? 1 : 0];
    const lm = m.lms[dir === 0 ? 1 : 0];
    cand = cand.map(normalizeToken);
    const ids = cand.map((w) => outV.index.get(w) ?? 0);
    const lmScore = lm.scoreSentence(ids.map((id) => lmWordId(m, dir, id))) / (ids.length + 1);
    const { qWords, qIds, fwdMax, qSet, repeats, closes } = line;
    let lf = 0;
    let nw = 0;
    for (let j = 0; j < cand.length; j++) {
      if (!isWordToken(cand[j])) continue;
      nw++;
      const p = ids[j] ? (fwdMax.get(ids[j]) ?? 0) : qSet.has(cand[j]) ? COPIED_WORD_PROB_FORWARD : 0;
      lf += Math.log(Math.max(p, FEATURE_PROB_FLOOR));
    }
    lf = nw ? lf / nw : Math.log(FEATURE_PROB_FLOOR);
    // lexical p(s|t) and coverage
    const revMax = new Map<number, number>();
    const lexR = m.lex[dir === 0 ? 1 : 0];
    for (const id of ids) {
      if (!id) continue;
      for (let x = lexR.off[id]; x < lexR.off[id + 1]; x++) {
        const o = lexR.ids[x];
        if ((revMax.get(o) ?? 0) < lexR.probs[x]) revMax.set(o, lexR.probs[x]);
      }
    }
    let lr = 0;
    let covered = 0;
    const candSet = new Set(cand);
    for (let x = 0; x < qWords.length; x++) {
      const id = qIds[x];
      const p = id ? (revMax.get(id) ?? 0) : candSet.has(qWords[x]) ? COPIED_WORD_PROB_REVERSE : 0;
      lr += Math.log(Math.max(p, FEATURE_PROB_FLOOR));
      if (p >= COVERED_MIN_PROB) covered++;
    }
    lr = qWords.length ? lr / qWords.length : 0;
    const coverage = qWords.length ? covered / qWords.length : 1;
    const cChars = cand.reduce((a, w) => a + writtenLength(w), 0);
    const z =
      (Math.log(Math.max(cChars, 1) / Math.max(srcChars, 1)) - Math.log(sentenceCharRatio(m.stats, dir) * this.lengthTargets[dir])) /
      Math.max(LENGTH_MIN_LOG_STD, m.stats.logCharRatioStd);
    // target-language consistency: words neither known in the target language nor copied from the input
    const oov = cand.length ? ids.filter((id, j) => !id && isWordToken(cand[j]) && !qSet.has(cand[j])).length / cand.length : 1;
    // ending: how readily the output language ends a sentence with the last word, and with the marks closing it
    const last = lastWordAt(cand);
    const ending = this.ends[dir].endCost(last >= 0 ? ids[last] : 0, ids.length > 1 ? ids[ids.length - 2] : 0, ids.length ? ids[ids.length - 1] : 0, closes);
    // repeat: words written right after themselves where neither the input nor the output language's data does so
    let repeat = 0;
    if (!repeats)
      for (let j = 1; j < ids.length; j++) {
        const id = ids[j];
        if (id === 0 || id !== ids[j - 1] || !isWordToken(cand[j]) || isPiece(cand[j])) continue;
        const lmId = lmWordId(m, dir, id);
        if (!lm.seenBigram(lmId, lmId)) repeat++;
      }
    // length: log-density of a standard normal (up to a constant) of the log length ratio's z-score
    return { lm: lmScore, lexF: lf, lexR: lr, coverage, length: -0.5 * z * z, oov, ending, repeat };
  }

  combine(f: Record<string, number>): number {
    const w = this.sw;
    return (
      w.lm * f.lm +
      w.lexF * f.lexF +
      w.lexR * f.lexR +
      w.coverage * f.coverage +
      w.length * f.length +
      w.oov * f.oov +
      w.ending * f.ending +
      w.repeat * f.repeat
    );
  }

  /** Restores the usual written form of output words (proper names, acronyms). */
  recase(tokens: string[], dir: 0 | 1): string[] {
    const v = this.model.sides[dir === 0 ? 1 : 0];
    return tokens.map((t) => {
      const id = v.index.get(t);
      return id !== undefined && v.cased[id] ? v.cased[id] : t;
    });
  }
}
