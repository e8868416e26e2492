/**
 * Two-phase translation.
 *  Phase 1: K candidates from different strategies — phrase-based beam decoding (phrase table + KN LM),
 *           translation-memory adaptation of the nearest examples (mismatched parts substituted through the
 *           phrase table), the nearest examples themselves, and a lexicon gloss.
 *  Phase 2: every candidate is scored (LM, lexical translation probability both ways, source coverage,
 *           length ratio, target-language consistency) and the final output is chosen by minimum Bayes risk
 *           with chrF as the utility, weighted by the scores.
 */
import { HybridIndex } from './hybrid-index';
import { charNgramCounts, chrfFromStats, chrfStatsFromCounts } from './metrics';
import { AgentModel, dirIndex, lookupLexicon, MAX_PHRASE, modelTokens } from './model';
import { BOS, EOS } from './lm';
import { detokenize, foldToken, isLiteralToken, isWordToken, normalizeToken, tokenize } from './tokenize';
import { calibrateConfidence } from './confidence-calibration';
import { exactExtraExample, extraId, mergeExtraExamples, tokenOverlap } from './extra-examples';
import { appliedTerms, containsForced, findForcedSpans, ForcedSpan, restoreTermForms } from './glossary';
import type {
  AppliedTerm,
  Candidate,
  ConfidenceCalibration,
  Direction,
  ExtraExample,
  LexiconUse,
  Provenance,
  ProvenanceExample,
  RetrievalHit,
  TranslateOptions,
  TranslateResult,
  TranslationEvent,
  UntranslatedSpan,
} from './types';

export interface TranslatorOptions {
  k?: number;
  beam?: number;
  /** number of memory examples retrieved */
  examples?: number;
  weights?: Partial<DecoderWeights>;
  /** decoder hypotheses entering phase 2 */
  nbest?: number;
  /** softmax temperature turning phase-2 scores into MBR weights */
  mbrTemperature?: number;
  /** weights of the phase-2 features */
  scoreWeights?: Partial<ScoreWeights>;
  /** nearest examples used as candidates as they are */
  rawExamples?: number;
  /** preferred output length relative to the length ratio learned from the corpus (chrF favours recall) */
  lengthTarget?: number;
  /** same, for the reverse direction (into the agent's source language) */
  lengthTargetReverse?: number;
  /** unknown words copied into reverse-direction output: all of them, or only names and numbers (default) */
  reverseCopy?: 'all' | 'names';
  /** stem back-off: minimum shared prefix as a fraction of the unknown word's length, per direction */
  stemMinRatio?: [number, number];
  /** weight of the model score beside the MBR utility when the final candidate is chosen */
  mbrScoreWeight?: number;
  /** a retrieved example is offered as it is only when it shares at least this share of the input's tokens
   *  (default 1: only an exact match; near duplicates are repaired by memory adaptation instead) */
  nearDuplicate?: number;
  /** maps raw confidence to expected quality (default: the model's calibration for the request's direction) */
  calibration?: ConfidenceCalibration;
}

/**
 * Why an input word may appear unchanged in the output: it is a number / URL / e-mail (`literal`), a name
 * (`name`), a word the output language's own data uses (`target`: loanwords such as 'documental'), a word
 * spelled like the output language rather than the input language (`loanword`: 'documentalbaon'), perhaps
 * a name (`maybe-name`: an unknown capitalized word opening a sentence) or perhaps a loanword (`borrowed`: a long
 * unknown word, when the agent's data shows the output language borrowing words of the input language).
 * `maybe-name` and `borrowed` words are copied but still reported as untranslated.
 */
export type CarryKind = 'literal' | 'name' | 'target' | 'loanword' | 'borrowed' | 'maybe-name';

/** Shares of the confidence: agreement between candidates (MBR), source coverage; scaled by the translated share. */
const CONFIDENCE_MBR = 0.6;
const CONFIDENCE_COVERAGE = 0.4;
/** Lowest lexicon probability through which a seen word still counts as translatable. */
const MIN_LEX_PROB = 0.05;
/** Tokens after which a capitalized word starts a sentence (and may be capitalized for that reason only). */
const SENTENCE_OPENERS = /^[.!?¿¡:;"«“(]$/;

export interface ScoreWeights {
  lm: number;
  lexF: number;
  lexR: number;
  coverage: number;
  length: number;
  oov: number;
}

const DEFAULT_SCORE_WEIGHTS: ScoreWeights = { lm: 0.3, lexF: 0.4, lexR: 0.4, coverage: 2, length: 2, oov: -2 };

export interface DecoderWeights {
  phiF: number;
  phiR: number;
  lexF: number;
  lexR: number;
  lm: number;
  word: number;
  phrase: number;
  copy: number;
  drop: number;
  /** penalty for translating an unknown word through a known word sharing its stem (longest common prefix) */
  stem: number;
  /** weight of |output chars − expected chars| (expected from the learned length ratio), applied incrementally */
  len: number;
  /** bonus per output character (orthography-neutral counterpart of the word bonus) */
  char: number;
}

const DEFAULT_WEIGHTS: DecoderWeights = {
  phiF: 0.3,
  phiR: 0.4,
  lexF: 0.15,
  lexR: 0.2,
  lm: 0.2,
  word: 1,
  phrase: -0.2,
  copy: -3,
  drop: -8,
  stem: -1.5,
  len: -0.4,
  char: 0.3,
};

interface Hyp {
  score: number;
  u: number;
  v: number;
  prev: Hyp | null;
  out: string[];
  src: string;
  cov: number;
  chars: number;
}

/** One way to translate an input phrase: output words, their LM ids, translation-model score, output characters. */
interface PhraseOption {
  out: string[];
  ids: number[];
  tm: number;
  chars: number;
}

interface DecodeResult {
  tokens: string[];
  score: number;
  used: LexiconUse[];
}

/** A phase the streamed status events mark. */
export type TranslationPhase = 'retrieve' | 'candidates' | 'refine';

/** The engine's events: TranslationEvent with the phase on status events and the glossary terms on completion. */
export type EngineTranslationEvent =
  | (Extract<TranslationEvent, { type: 'status' }> & { phase: TranslationPhase })
  | Extract<TranslationEvent, { type: 'translation_chunk' | 'error' }>
  | (Extract<TranslationEvent, { type: 'translation_complete' }> & { raw_confidence: number; applied_terms: AppliedTerm[] });

/** Strategy of an answer that is an extra example's other side (the input equals its side). */
const EXACT_EXTRA_STRATEGY = 'extra-example';
/** `explain` lists a retrieved example that gave no candidate when its output side has at least this chrF with the answer. */
const EXPLAIN_MIN_LIKENESS = 0.3;
/** Lexicon / phrase entries listed by `explain`. */
const EXPLAIN_MAX_ENTRIES = 30;

/** A draft translation of phase 1: model tokens, the strategy, phrase entries used, the example it came from. */
interface Draft {
  tokens: string[];
  strategy: string;
  used: LexiconUse[];
  hit?: RetrievalHit;
  /** share of the input's tokens the example shares (memory adaptation, nearest example) */
  overlap?: number;
}

/** Where a scored candidate came from (kept beside the public Candidate, for provenance). */
interface CandidateOrigin {
  used: LexiconUse[];
  hit?: RetrievalHit;
}

/** One line of input through the phases. */
interface LineJob {
  text: string;
  dir: 0 | 1;
  opts: TranslateOptions | undefined;
  surface: string[];
  qTok: string[];
  forced: ForcedSpan[];
  hits: RetrievalHit[];
  extraIds: Set<string>;
  drafts: Draft[];
  candidates: Candidate[];
  /** per candidate (same order) */
  origins: CandidateOrigin[];
}

/** A line to translate, or one already answered. */
type LineWork = { job: LineJob } | { result: TranslateResult };

/** A request split into lines (one line when it has no line break or matches an extra example whole). */
interface Plan {
  text: string;
  lines: string[];
  /** per line; null for a blank line of a multi-line text */
  work: (LineWork | null)[];
}

function sentenceChrFOf(hyp: Map<string, number>[], ref: Map<string, number>[]): number {
  return chrfFromStats(chrfStatsFromCounts(hyp, ref));
}

function planJobs(plan: Plan): LineJob[] {
  return plan.work.flatMap((w) => (w && 'job' in w ? [w.job] : []));
}

function emptyResult(): TranslateResult {
  return { translation: '', confidence: 0, rawConfidence: 0, appliedTerms: [], untranslated: [], candidates: [], provenance: { examples: [], lexicon: [], strategy: 'empty' } };
}

/** A word is spelled like the output language when its per-character log-likelihood ratio exceeds this. */
const LOANWORD_MARGIN = 0.5;
/** Borrowing: rare input words are those seen at most BORROWING_RARE times; only words this long are borrowed;
 *  unknown words are copied as probable loanwords when at least BORROWING_MIN_RATE of the rare ones are shared. */
const BORROWING_RARE = 3;
const BORROWING_MIN_LENGTH = 5;
const BORROWING_MIN_RATE = 0.03;
/** An inflected loanword or name is reduced to its longest prefix that the output language's data uses when the
 *  prefix has at least this many characters and covers at least TARGET_STEM_SHARE of the word. */
const TARGET_STEM_MIN = 5;
const TARGET_STEM_SHARE = 0.5;

/** Character trigram counts over the distinct words of one language (spelling model). */
interface CharTrigrams {
  tri: Map<string, number>;
  bi: Map<string, number>;
  total: number;
  letters: number;
}

function charTrigrams(words: string[]): CharTrigrams {
  const tri = new Map<string, number>();
  const bi = new Map<string, number>();
  const letters = new Set<string>();
  let total = 0;
  for (let i = 3; i < words.length; i++) {
    const w = words[i];
    if (!isWordToken(w) || isLiteralToken(w)) continue;
    const c = ['^', '^', ...Array.from(w), '$'];
    for (const ch of c) letters.add(ch);
    for (let j = 2; j < c.length; j++) {
      const h = c[j - 2] + c[j - 1];
      tri.set(h + c[j], (tri.get(h + c[j]) ?? 0) + 1);
      bi.set(h, (bi.get(h) ?? 0) + 1);
      total++;
    }
  }
  return { tri, bi, total, letters: Math.max(letters.size, 30) };
}

/** Add-one smoothed log probability of a word's spelling. */
function trigramLogProb(m: CharTrigrams, word: string): number {
  const c = ['^', '^', ...Array.from(word), '$'];
  let lp = 0;
  for (let j = 2; j < c.length; j++) {
    const h = c[j - 2] + c[j - 1];
    lp += Math.log(((m.tri.get(h + c[j]) ?? 0) + 1) / ((m.bi.get(h) ?? 0) + m.letters));
  }
  return lp;
}

/** Spelling variants: at most this edit distance over the length of the longer folded form. */
const VARIANT_MAX_DISTANCE = 0.2;
/** Variants are looked for only for words at least this long (short words collide too easily). */
const VARIANT_MIN_LENGTH = 4;
const VARIANT_CACHE_SIZE = 5000;
/** Phrase options tried for an unknown word translated through a variant or stem back-off. */
const BACKOFF_OPTIONS = 4;

interface VariantIndex {
  /** folded form → most frequent key with that form */
  folded: Map<string, { key: string; freq: number }>;
  /** first folded letter + length → entries */
  buckets: Map<string, { fold: string; key: string; freq: number }[]>;
}

function buildVariantIndex(keys: string[], freqOf: (k: string) => number): VariantIndex {
  const folded = new Map<string, { key: string; freq: number }>();
  for (const key of keys) {
    const f = foldToken(key);
    const freq = freqOf(key);
    const ex = folded.get(f);
    if (!ex || ex.freq < freq) folded.set(f, { key, freq });
  }
  const buckets = new Map<string, { fold: string; key: string; freq: number }[]>();
  for (const [fold, e] of folded) {
    if (fold.length < VARIANT_MIN_LENGTH - 1) continue;
    const bucket = fold[0] + fold.length;
    const b = buckets.get(bucket) ?? [];
    b.push({ fold, key: e.key, freq: e.freq });
    buckets.set(bucket, b);
  }
  return { folded, buckets };
}

/** Levenshtein distance of a and b, or `max + 1` as soon as it exceeds `max`. */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (rowA.length <= b.length) {
    rowA = new Int32Array(2 * b.length + 2);
    rowB = new Int32Array(2 * b.length + 2);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

function nearestVariant(ix: VariantIndex, word: string): string | null {
  const f = foldToken(word);
  const same = ix.folded.get(f);
  if (same) return same.key === word ? null : same.key;
  if (f.length < VARIANT_MIN_LENGTH) return null;
  const max = Math.floor(VARIANT_MAX_DISTANCE * f.length);
  if (max < 1) return null;
  let best: { key: string; freq: number } | null = null;
  let bestD = max + 1;
  for (let len = f.length - max; len <= f.length + max; len++) {
    for (const e of ix.buckets.get(f[0] + len) ?? []) {
      const d = boundedEditDistance(f, e.fold, Math.min(max, bestD));
      if (d < bestD || (d === bestD && best && e.freq > best.freq)) {
        if (d > Math.floor(VARIANT_MAX_DISTANCE * Math.max(f.length, e.fold.length))) continue;
        best = e;
        bestD = d;
      }
    }
  }
  return best ? best.key : null;
}

function capitalizeLike(out: string, src: string): string {
  const m = /\p{L}/u.exec(src);
  const first = m ? m[0] : undefined;
  const i = out.search(/\p{L}/u);
  if (first && first !== first.toLowerCase() && i >= 0) return out.slice(0, i) + out[i].toUpperCase() + out.slice(i + 1);
  return out;
}

export class Translator {
  private readonly k: number;
  private readonly beam: number;
  private readonly nExamples: number;
  private readonly w: DecoderWeights;
  private readonly sw: ScoreWeights;
  private readonly nbest: number;
  private readonly temp: number;
  private readonly rawExamples: number;
  private readonly lengthTargets: [number, number];
  private readonly reverseCopy: 'all' | 'names';
  private readonly stemMinRatio: [number, number];

  constructor(
    private readonly model: AgentModel,
    private readonly index: HybridIndex,
    opts?: TranslatorOptions,
  ) {
    this.k = opts?.k ?? 8;
    this.beam = opts?.beam ?? 10;
    this.nExamples = opts?.examples ?? 4;
    this.w = { ...DEFAULT_WEIGHTS, ...(opts?.weights ?? {}) };
    this.sw = { ...DEFAULT_SCORE_WEIGHTS, ...(opts?.scoreWeights ?? {}) };
    this.nbest = opts?.nbest ?? 6;
    this.temp = opts?.mbrTemperature ?? 10;
    this.rawExamples = opts?.rawExamples ?? 2;
    this.reverseCopy = opts?.reverseCopy ?? 'names';
    this.stemMinRatio = opts?.stemMinRatio ?? [0.6, 0.4];
    this.lengthTargets = [opts?.lengthTarget ?? 1.05, opts?.lengthTargetReverse ?? 1.0];
    this.mbrScoreWeight = opts?.mbrScoreWeight ?? 0.3;
    this.nearDuplicate = opts?.nearDuplicate ?? 1;
    this.calibration = opts?.calibration;
  }

  private readonly mbrScoreWeight: number;
  private readonly nearDuplicate: number;
  private readonly calibration: ConfidenceCalibration | undefined;

  /**
   * Whether an input word the model cannot translate belongs unchanged in the output: numbers, URLs and e-mail
   * addresses always; names (capitalized inside a sentence, acronyms); words of the output language's own
   * vocabulary and words whose spelling is far likelier in the output language (loanwords); `maybe-name`: a capitalized sentence opener no data of either language shows, copied
   * but still reported as untranslated. Anything else is not copied: it is reported as untranslated.
   */
  carryKind(surface: string, atSentenceStart: boolean, dir: 0 | 1): CarryKind | null {
    if (!isWordToken(surface)) return null;
    if (isLiteralToken(surface)) return 'literal';
    const w = normalizeToken(surface);
    const outV = this.model.sides[dir === 0 ? 1 : 0];
    if ((outV.index.get(w) ?? 0) > 2) return 'target';
    if (this.looksLike(w, dir) > LOANWORD_MARGIN) return 'loanword';
    if (w.length >= BORROWING_MIN_LENGTH && this.borrowingRate(dir) >= BORROWING_MIN_RATE) return 'borrowed';
    if (/^\p{Lu}/u.test(surface)) {
      if (!atSentenceStart || /^\p{Lu}{2,}$/u.test(surface)) return 'name';
      if (!this.model.sides[dir].index.has(w)) return 'maybe-name';
    }
    return null;
  }

  /** Whether the model has a translation for an input word (phrase, lexicon entry or stem back-off). */
  private translatable(word: string, dir: 0 | 1): boolean {
    if (this.model.tables[dir].keyIndex.has(word)) return true;
    const id = this.model.sides[dir].index.get(word) ?? 0;
    const lex = this.model.lex[dir];
    if (id > 0) for (let x = lex.off[id]; x < lex.off[id + 1]; x++) if (lex.ids[x] !== 0 && lex.probs[x] >= MIN_LEX_PROB) return true;
    return this.variantBackoff(word, dir) !== null || this.stemBackoff(word, dir) !== null;
  }

  private borrowing: [number | null, number | null] = [null, null];

  /**
   * How much the output language borrows words of the input language, learned from the agent's vocabularies: the
   * share of rare input words (≤ BORROWING_RARE occurrences, ≥ BORROWING_MIN_LENGTH letters) that the output side
   * also writes, alone or inflected (as the start of one of its words).
   */
  borrowingRate(dir: 0 | 1): number {
    const known = this.borrowing[dir];
    if (known !== null) return known;
    const inV = this.model.sides[dir];
    const sorted = this.model.sides[dir === 0 ? 1 : 0].words.slice(3).sort();
    const startsSome = (w: string): boolean => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid] < w) lo = mid + 1;
        else hi = mid;
      }
      return lo < sorted.length && sorted[lo].startsWith(w);
    };
    let rare = 0;
    let shared = 0;
    for (let i = 3; i < inV.words.length; i++) {
      const w = inV.words[i];
      if (inV.freq[i] > BORROWING_RARE || w.length < BORROWING_MIN_LENGTH || !isWordToken(w) || isLiteralToken(w)) continue;
      rare++;
      if (startsSome(w)) shared++;
    }
    const rate = rare ? shared / rare : 0;
    this.borrowing[dir] = rate;
    return rate;
  }

  /** Longest proper prefix of an input word that is a word of the output language ('diciembrenin' → 'diciembre'). */
  targetStem(surface: string, dir: 0 | 1): string | null {
    const cache = this.stemCache[dir];
    const hit = cache.get(surface);
    if (hit !== undefined) return hit;
    const outV = this.model.sides[dir === 0 ? 1 : 0];
    const chars = Array.from(surface);
    const min = Math.max(TARGET_STEM_MIN, Math.ceil(TARGET_STEM_SHARE * chars.length));
    let found: string | null = null;
    for (let n = chars.length - 1; n >= min && found === null; n--) {
      const pre = chars.slice(0, n).join('');
      if (!/[-'’]$/.test(pre) && (outV.index.get(normalizeToken(pre)) ?? 0) > 2) found = pre;
    }
    if (cache.size > VARIANT_CACHE_SIZE) cache.clear();
    cache.set(surface, found);
    return found;
  }

  private stemCache: [Map<string, string | null>, Map<string, string | null>] = [new Map(), new Map()];

  private spelling: [CharTrigrams, CharTrigrams] | null = null;

  /** Per-character log-likelihood ratio: spelling of the output language over that of the input language. */
  looksLike(word: string, dir: 0 | 1): number {
    const cache = this.spellingCache[dir];
    const hit = cache.get(word);
    if (hit !== undefined) return hit;
    if (!this.spelling) this.spelling = [charTrigrams(this.model.sides[0].words), charTrigrams(this.model.sides[1].words)];
    const out = this.spelling[dir === 0 ? 1 : 0];
    const inp = this.spelling[dir];
    const llr = !out.total || !inp.total ? 0 : (trigramLogProb(out, word) - trigramLogProb(inp, word)) / (Array.from(word).length + 1);
    if (cache.size > VARIANT_CACHE_SIZE) cache.clear();
    cache.set(word, llr);
    return llr;
  }

  private spellingCache: [Map<string, number>, Map<string, number>] = [new Map(), new Map()];

  private variantIndex: [VariantIndex | null, VariantIndex | null] = [null, null];
  private variantCache: [Map<string, string | null>, Map<string, string | null>] = [new Map(), new Map()];

  /**
   * Known single-word phrase key written almost like an unknown word (spelling variant: same letters without
   * diacritics, or normalized edit distance ≤ VARIANT_MAX_DISTANCE between the folded forms), the most frequent
   * of the closest ones, if any.
   */
  variantBackoff(word: string, dir: 0 | 1): string | null {
    const cache = this.variantCache[dir];
    const hit = cache.get(word);
    if (hit !== undefined) return hit;
    let ix = this.variantIndex[dir];
    if (!ix) {
      const side = this.model.sides[dir];
      ix = buildVariantIndex(
        this.model.tables[dir].keys.filter((k) => !k.includes(' ') && isWordToken(k) && !isLiteralToken(k)),
        (k) => side.freq[side.index.get(k) ?? 0] ?? 0,
      );
      this.variantIndex[dir] = ix;
    }
    const res = nearestVariant(ix, word);
    if (cache.size > VARIANT_CACHE_SIZE) cache.clear();
    cache.set(word, res);
    return res;
  }

  /* ------------------------------------------------------------ phase 1: decoder */

  private stemKeys: [string[] | null, string[] | null] = [null, null];

  /** Known single-word phrase key sharing the longest prefix with an unknown word (its stem), if any. */
  stemBackoff(word: string, dir: 0 | 1): string | null {
    const len = Array.from(word).length;
    if (len < 5 || !isWordToken(word)) return null;
    let keys = this.stemKeys[dir];
    if (!keys) {
      keys = this.model.tables[dir].keys.filter((k) => !k.includes(' ') && isWordToken(k)).sort();
      this.stemKeys[dir] = keys;
    }
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    const lcp = (a: string, b: string): number => {
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return i;
    };
    let best = 0;
    for (const i of [lo - 1, lo]) if (i >= 0 && i < keys.length) best = Math.max(best, lcp(word, keys[i]));
    if (best < 4 || best < this.stemMinRatio[dir] * word.length) return null;
    const freq = this.model.sides[dir].freq;
    const idx = this.model.sides[dir].index;
    let pick: string | null = null;
    let pf = -1;
    for (let i = lo - 1, n = 0; i >= 0 && n < 60 && lcp(word, keys[i]) >= best; i--, n++) {
      const f = freq[idx.get(keys[i]) ?? 0] ?? 0;
      if (f > pf) {
        pf = f;
        pick = keys[i];
      }
    }
    for (let i = lo, n = 0; i < keys.length && n < 60 && lcp(word, keys[i]) >= best; i++, n++) {
      const f = freq[idx.get(keys[i]) ?? 0] ?? 0;
      if (f > pf) {
        pf = f;
        pick = keys[i];
      }
    }
    return pick;
  }

  private lmId(dir: 0 | 1, id: number): number {
    const lm = this.model.lms[dir === 0 ? 1 : 0];
    return id < lm.data.V ? id : 0;
  }

  /** Monotone phrase-based beam search over normalized input tokens; `surface` gives copy forms. */
  decode(tokens: string[], surface: string[], dir: 0 | 1, nbest = 4, forced: readonly ForcedSpan[] = []): DecodeResult[] {
    const m = this.model;
    const tab = m.tables[dir];
    const outV = m.sides[dir === 0 ? 1 : 0];
    const inV = m.sides[dir];
    const lm = m.lms[dir === 0 ? 1 : 0];
    const W = this.w;
    const n = tokens.length;
    if (n === 0) return [{ tokens: [], score: 0, used: [] }];
    const stacks: Map<number, Hyp>[] = Array.from({ length: n + 1 }, () => new Map());
    stacks[0].set(BOS * lm.data.V + BOS, { score: 0, u: BOS, v: BOS, prev: null, out: [], src: '', cov: 0, chars: 0 });
    // expected output characters after each input position
    const ratio = (dir === 0 ? m.stats.charRatioCorpus : 1 / m.stats.charRatioCorpus) * this.lengthTargets[dir];
    const expect = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) expect[i + 1] = expect[i] + ratio * surface[i].length;
    // glossary constraints: a forced span is crossed only as a whole, by its required output
    const covered = forced.length ? new Int32Array(n).fill(-1) : null;
    forced.forEach((f, x) => covered?.fill(x, f.start, f.end));
    for (let i = 0; i < n; i++) {
      const hyps = [...stacks[i].values()].sort((a, b) => b.score - a.score).slice(0, this.beam);
      if (!hyps.length) continue;
      const span = covered && covered[i] >= 0 ? forced[covered[i]] : null;
      for (let len = span ? span.end - i : 1; len <= (span ? span.end - i : MAX_PHRASE) && i + len <= n; len++) {
        if (!span && covered && covered[i + len - 1] >= 0) break;
        const key = len === 1 ? tokens[i] : tokens.slice(i, i + len).join(' ');
        if (span) {
          const ids = span.norm.map((w) => this.lmId(dir, outV.index.get(w) ?? 0));
          this.extend(hyps, [{ out: span.out, ids, tm: 0, chars: span.out.reduce((a, w) => a + w.length, 0) }], stacks[i + len], dir, i, len, n, key, expect);
          continue;
        }
        let k = tab.keyIndex.get(key);
        let extra = 0;
        if (k === undefined && len === 1) {
          const stem = this.variantBackoff(key, dir) ?? this.stemBackoff(key, dir);
          if (stem !== null) {
            k = tab.keyIndex.get(stem);
            extra = W.stem;
          }
        }
        const opts: PhraseOption[] = [];
        if (k !== undefined) {
          for (let o = tab.off[k]; o < tab.off[k + 1]; o++) {
            const ids = Array.from(tab.tgtIds.subarray(tab.tgtOff[o], tab.tgtOff[o + 1]));
            const sc = tab.scores;
            const tm = W.phiF * sc[4 * o] + W.phiR * sc[4 * o + 1] + W.lexF * sc[4 * o + 2] + W.lexR * sc[4 * o + 3] + W.phrase + extra;
            const out = ids.map((id) => outV.words[id]);
            opts.push({ out, ids: ids.map((id) => this.lmId(dir, id)), tm, chars: out.reduce((a, w) => a + w.length, 0) });
          }
          // a back-off (variant or stem of an unknown word) is a guess: only its best few options are tried
          if (extra !== 0 && opts.length > BACKOFF_OPTIONS) opts.sort((x, y) => y.tm - x.tm).splice(BACKOFF_OPTIONS);
        }
        if (len === 1) {
          const known = k !== undefined && extra === 0;
          const id = inV.index.get(tokens[i]) ?? 0;
          if (!known && id > 0) {
            // a seen word without a phrase of its own (absorbed in longer phrases): lexicon or nothing
            const lex = m.lex[dir];
            for (let x = lex.off[id]; x < lex.off[id + 1] && x < lex.off[id] + 3; x++) {
              if (lex.ids[x] === 0 || lex.probs[x] < 0.05) continue;
              const w = outV.words[lex.ids[x]];
              opts.push({ out: [w], ids: [this.lmId(dir, lex.ids[x])], tm: (W.phiF + W.lexF + W.phiR + W.lexR) * Math.log(lex.probs[x]) + W.phrase - 1, chars: w.length });
            }
            opts.push({ out: [], ids: [], tm: W.drop / 2, chars: 0 });
          } else if (!known) {
            // unknown word: copied only when it belongs in the output language (number, URL, name, loanword);
            // otherwise left out (and reported as untranslated); punctuation is copied
            const carry = isWordToken(surface[i]) ? this.carryKind(surface[i], i === 0 || SENTENCE_OPENERS.test(surface[i - 1]), dir) : 'literal';
            const stem = carry === 'literal' || carry === 'target' ? null : this.targetStem(surface[i], dir);
            if (stem !== null) {
              const outId = outV.index.get(normalizeToken(stem)) ?? 0;
              opts.push({ out: [stem], ids: [this.lmId(dir, outId)], tm: W.copy + W.stem, chars: stem.length });
            } else if (carry || this.reverseCopy === 'all') {
              const outId = carry === 'target' ? (outV.index.get(tokens[i]) ?? 0) : 0;
              opts.push({ out: [surface[i]], ids: [this.lmId(dir, outId)], tm: W.copy, chars: surface[i].length });
            } else opts.push({ out: [], ids: [], tm: k === undefined ? W.copy : W.drop, chars: 0 });
          }
          // numbers, URLs and e-mail addresses are carried over exactly even when the data gives them a translation
          if (known && isLiteralToken(surface[i])) opts.push({ out: [surface[i]], ids: [0], tm: 0, chars: surface[i].length });
          if (known && id > 0 && id < 200) opts.push({ out: [], ids: [], tm: W.drop, chars: 0 });
        }
        if (!opts.length) continue;
        this.extend(hyps, opts, stacks[i + len], dir, i, len, n, key, expect);
      }
    }
    const finals = [...stacks[n].values()].sort((a, b) => b.score - a.score);
    const res: DecodeResult[] = [];
    const seen = new Set<string>();
    for (const f of finals) {
      const parts: Hyp[] = [];
      for (let h: Hyp | null = f; h && h.prev; h = h.prev) parts.push(h);
      parts.reverse();
      const toks = parts.flatMap((p) => p.out);
      const s = toks.join(' ');
      if (seen.has(s)) continue;
      seen.add(s);
      res.push({
        tokens: toks,
        score: f.score,
        used: parts.filter((p) => p.out.length).map((p) => ({ source: p.src, target: p.out.join(' '), prob: 1 })),
      });
      if (res.length >= nbest) break;
    }
    return res;
  }

  /** Extends each hypothesis by each option covering input tokens i..i+len-1 into `target` (recombined by LM state). */
  private extend(hyps: Hyp[], opts: PhraseOption[], target: Map<number, Hyp>, dir: 0 | 1, i: number, len: number, n: number, key: string, expect: Float64Array): void {
    const W = this.w;
    const lm = this.model.lms[dir === 0 ? 1 : 0];
    const V = lm.data.V;
    for (const h of hyps) {
      for (const o of opts) {
        let u = h.u;
        let v = h.v;
        let lp = 0;
        for (const id of o.ids) {
          lp += lm.logProb(u, v, id);
          u = v;
          v = id;
        }
        const chars = h.chars + o.chars;
        const dev = Math.abs(chars - expect[i + len]) - Math.abs(h.chars - expect[i]);
        let score = h.score + o.tm + W.lm * lp + W.word * o.ids.length + W.char * o.chars + W.len * dev;
        if (i + len === n) score += W.lm * lm.logProb(u, v, EOS);
        const sk = u * V + v;
        const ex = target.get(sk);
        if (!ex || ex.score < score) target.set(sk, { score, u, v, prev: h, out: o.out, src: key, cov: len, chars });
      }
    }
  }

  /* ------------------------------------------------------------ phase 1: memory adaptation */

  private adapt(qTok: string[], qSurf: string[], hit: RetrievalHit, dir: 0 | 1, forced: readonly ForcedSpan[] = []): { tokens: string[]; overlap: number } | null {
    const hText = dir === 0 ? hit.source : hit.target;
    const oText = dir === 0 ? hit.target : hit.source;
    const H = modelTokens(hText);
    const O = modelTokens(oText);
    if (!H.length || !O.length) return null;
    // LCS between query and example input
    const n = qTok.length;
    const mH = H.length;
    const L = Array.from({ length: n + 1 }, () => new Int32Array(mH + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = mH - 1; j >= 0; j--) L[i][j] = qTok[i] === H[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
    const qMatch = new Int32Array(n).fill(-1);
    const hMatched = new Uint8Array(mH);
    for (let i = 0, j = 0; i < n && j < mH; ) {
      if (qTok[i] === H[j]) {
        qMatch[i] = j;
        hMatched[j] = 1;
        i++;
        j++;
      } else if (L[i + 1][j] >= L[i][j + 1]) i++;
      else j++;
    }
    const overlap = L[0][0] / Math.max(n, mH);
    if (L[0][0] === 0) return null;
    // glossary terms are never taken from the example: their words count as unmatched and are decoded (forced)
    for (const f of forced)
      for (let p = f.start; p < f.end; p++)
        if (qMatch[p] >= 0) {
          hMatched[qMatch[p]] = 0;
          qMatch[p] = -1;
        }
    // align output words to example input words through the lexicon
    const m = this.model;
    const inV = m.sides[dir];
    const outV = m.sides[dir === 0 ? 1 : 0];
    const lex = m.lex[dir];
    const a = new Int32Array(O.length).fill(-1);
    const best = new Float64Array(O.length);
    H.forEach((hw, hi) => {
      const id = inV.index.get(hw) ?? 0;
      if (!id) return;
      for (let x = lex.off[id]; x < lex.off[id + 1]; x++) {
        const ow = outV.words[lex.ids[x]];
        for (let j = 0; j < O.length; j++) {
          if (O[j] === ow && lex.probs[x] > best[j]) {
            best[j] = lex.probs[x];
            a[j] = hi;
          }
        }
      }
    });
    // delete output words aligned to unmatched example words
    const keep = O.map((_, j) => !(a[j] >= 0 && !hMatched[a[j]]));
    // last output position aligned to each example word
    const lastOut = new Int32Array(mH).fill(-1);
    for (let j = 0; j < O.length; j++) if (a[j] >= 0) lastOut[a[j]] = Math.max(lastOut[a[j]], j);
    const inserts = new Map<number, string[]>(); // after output position (-1 = start)
    for (let i = 0; i < n; ) {
      if (qMatch[i] >= 0) {
        i++;
        continue;
      }
      let e = i;
      while (e < n && qMatch[e] < 0) e++;
      const segForced = forced.filter((f) => f.start >= i && f.end <= e).map((f) => ({ ...f, start: f.start - i, end: f.end - i }));
      const seg = this.decode(qTok.slice(i, e), qSurf.slice(i, e), dir, 1, segForced)[0]?.tokens ?? [];
      let anchor = -1;
      for (let p = i - 1; p >= 0; p--)
        if (qMatch[p] >= 0) {
          anchor = lastOut[qMatch[p]];
          if (anchor < 0) {
            // fall back to proportional position
            anchor = Math.round((qMatch[p] / mH) * O.length) - 1;
          }
          break;
        }
      const arr = inserts.get(anchor) ?? [];
      arr.push(...seg);
      inserts.set(anchor, arr);
      i = e;
    }
    const out: string[] = [...(inserts.get(-1) ?? [])];
    for (let j = 0; j < O.length; j++) {
      if (keep[j]) out.push(O[j]);
      const ins = inserts.get(j);
      if (ins) out.push(...ins);
    }
    return { tokens: out, overlap };
  }

  /* ------------------------------------------------------------ phase 2: scoring */

  /** Word id of an input word, or of the known word it is a spelling variant or inflection of (0 if none). */
  private inputId(w: string, dir: 0 | 1): number {
    const inV = this.model.sides[dir];
    const id = inV.index.get(w) ?? 0;
    if (id || !isWordToken(w)) return id;
    const cache = this.backoffIds[dir];
    const hit = cache.get(w);
    if (hit !== undefined) return hit;
    const back = this.variantBackoff(w, dir) ?? this.stemBackoff(w, dir);
    const res = back === null ? 0 : (inV.index.get(back) ?? 0);
    if (cache.size > VARIANT_CACHE_SIZE) cache.clear();
    cache.set(w, res);
    return res;
  }

  private backoffIds: [Map<string, number>, Map<string, number>] = [new Map(), new Map()];

  private features(qTok: string[], cand: string[], dir: 0 | 1, srcChars: number): Record<string, number> {
    const m = this.model;
    const outV = m.sides[dir === 0 ? 1 : 0];
    const lm = m.lms[dir === 0 ? 1 : 0];
    cand = cand.map(normalizeToken);
    const ids = cand.map((w) => outV.index.get(w) ?? 0);
    const lmScore = lm.scoreSentence(ids.map((id) => this.lmId(dir, id))) / (ids.length + 1);
    // lexical p(t|s): for each output word the best source word
    const fwdMax = new Map<number, number>();
    const lexF = m.lex[dir];
    const qWords = qTok.filter(isWordToken);
    for (const w of qWords) {
      const id = this.inputId(w, dir);
      if (!id) continue;
      for (let x = lexF.off[id]; x < lexF.off[id + 1]; x++) {
        const o = lexF.ids[x];
        if ((fwdMax.get(o) ?? 0) < lexF.probs[x]) fwdMax.set(o, lexF.probs[x]);
      }
    }
    let lf = 0;
    let nw = 0;
    for (let j = 0; j < cand.length; j++) {
      if (!isWordToken(cand[j])) continue;
      nw++;
      const p = ids[j] ? (fwdMax.get(ids[j]) ?? 0) : qTok.includes(cand[j]) ? 0.3 : 0;
      lf += Math.log(Math.max(p, 1e-4));
    }
    lf = nw ? lf / nw : Math.log(1e-4);
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
    for (const w of qWords) {
      const id = this.inputId(w, dir);
      const p = id ? (revMax.get(id) ?? 0) : candSet.has(w) ? 0.5 : 0;
      lr += Math.log(Math.max(p, 1e-4));
      if (p >= 0.02) covered++;
    }
    lr = qWords.length ? lr / qWords.length : 0;
    const coverage = qWords.length ? covered / qWords.length : 1;
    const ratioStats = dir === 0 ? m.stats.charRatioCorpus : 1 / m.stats.charRatioCorpus;
    const cChars = cand.join('').length;
    const z = (Math.log(Math.max(cChars, 1) / Math.max(srcChars, 1)) - Math.log(ratioStats * this.lengthTargets[dir])) / Math.max(0.15, m.stats.logCharRatioStd);
    // target-language consistency: words neither known in the target language nor copied from the input
    const qSet = new Set(qTok);
    const oov = cand.length ? ids.filter((id, j) => !id && isWordToken(cand[j]) && !qSet.has(cand[j])).length / cand.length : 1;
    return { lm: lmScore, lexF: lf, lexR: lr, coverage, length: -0.5 * z * z, oov };
  }

  private combine(f: Record<string, number>): number {
    const w = this.sw;
    return w.lm * f.lm + w.lexF * f.lexF + w.lexR * f.lexR + w.coverage * f.coverage + w.length * f.length + w.oov * f.oov;
  }

  /** Restores the usual written form of output words (proper names, acronyms). */
  private recase(tokens: string[], dir: 0 | 1): string[] {
    const v = this.model.sides[dir === 0 ? 1 : 0];
    return tokens.map((t) => {
      const id = v.index.get(t);
      return id !== undefined && v.cased[id] ? v.cased[id] : t;
    });
  }

  /* ------------------------------------------------------------ public API */

  retrieve(text: string, direction: Direction = 'forward', k = this.nExamples): RetrievalHit[] {
    return this.index.size ? this.index.search(text, k, { side: direction === 'reverse' ? 'target' : 'source' }) : [];
  }

  /** Phases 1 and 2 without the final choice: the candidate drafts with scores and MBR utilities (for the LLM engine). */
  candidates(text: string, opts?: TranslateOptions): { candidates: Candidate[]; hits: RetrievalHit[] } {
    const job = this.startLine(text, opts);
    this.retrieveExamples(job);
    this.generate(job);
    this.refine(job);
    return { candidates: job.candidates, hits: job.hits };
  }

  translateText(text: string, opts?: TranslateOptions): TranslateResult {
    const plan = this.plan(text, opts);
    for (const job of planJobs(plan)) {
      this.retrieveExamples(job);
      this.generate(job);
      this.refine(job);
    }
    return this.finish(plan);
  }

  /** Splits the request into lines; lines answered without translating (blank, or an exact extra example) are done. */
  private plan(text: string, opts: TranslateOptions | undefined): Plan {
    const dir = dirIndex(opts?.direction);
    const exact = exactExtraExample(text, opts?.extraExamples, dir);
    if (exact) return { text, lines: [text], work: [{ result: this.exactResult(text, exact, dir, opts) }] };
    const lines = text.split(/\r?\n/);
    if (lines.length === 1) return { text, lines, work: [text.trim() ? { job: this.startLine(text, opts) } : { result: emptyResult() }] };
    const work = lines.map((line): LineWork | null => {
      if (!line.trim()) return null;
      const ex = exactExtraExample(line, opts?.extraExamples, dir);
      return ex ? { result: this.exactResult(line, ex, dir, opts) } : { job: this.startLine(line, opts) };
    });
    return { text, lines, work };
  }

  private startLine(text: string, opts: TranslateOptions | undefined): LineJob {
    const dir = dirIndex(opts?.direction);
    const surface = tokenize(text);
    return {
      text,
      dir,
      opts,
      surface,
      qTok: surface.map(normalizeToken),
      forced: findForcedSpans(surface, opts?.glossary, dir),
      hits: [],
      extraIds: new Set(),
      drafts: [],
      candidates: [],
      origins: [],
    };
  }

  /** Retrieval: the nearest examples of the agent's memory (or the caller's), with the caller's extra examples. */
  private retrieveExamples(job: LineJob): void {
    const found = job.opts?.examples ? job.opts.examples.slice(0, this.nExamples) : this.retrieve(job.text, job.opts?.direction);
    const merged = mergeExtraExamples(found, job.opts?.extraExamples, job.qTok, job.dir, this.nExamples);
    job.hits = merged.hits;
    job.extraIds = merged.extraIds;
  }

  /** Phase 1: decoder n-best, memory adaptations of the nearest examples, the nearest examples themselves. */
  private generate(job: LineJob): void {
    const { qTok, surface, dir, hits, forced } = job;
    const K = job.opts?.k ?? this.k;
    const raw: Draft[] = [];
    const dec = this.decode(qTok, surface, dir, this.nbest, forced);
    for (const d of dec) raw.push({ tokens: d.tokens, strategy: 'phrase-decoder', used: d.used });
    for (const h of hits.slice(0, 2)) {
      const ad = this.adapt(qTok, surface, h, dir, forced);
      if (ad && ad.overlap >= 0.25) raw.push({ tokens: ad.tokens, strategy: 'memory-adaptation', used: [], hit: h, overlap: ad.overlap });
    }
    for (const h of hits.slice(0, this.rawExamples))
      raw.push({ tokens: modelTokens(dir === 0 ? h.target : h.source), strategy: 'nearest-example', used: [], hit: h, overlap: tokenOverlap(qTok, modelTokens(dir === 0 ? h.source : h.target)) });
    // punctuation that pairs (quotes, brackets) only appears in the output if the input has it
    const PAIRED = /^["“”«»„‟'‘’()[\]{}]$/;
    const inputPaired = new Set(surface.filter((t) => PAIRED.test(t)));
    for (const r of raw) {
      if (r.strategy === 'nearest-example') continue;
      r.tokens = r.tokens.filter((t) => !PAIRED.test(t) || inputPaired.has(t));
      // no doubled punctuation ("día..") unless the input has it
      r.tokens = r.tokens.filter((t, i) => i === 0 || t !== r.tokens[i - 1] || isWordToken(t) || surface.some((x, j) => j > 0 && x === t && surface[j - 1] === t));
    }
    const uniq = new Map<string, Draft>();
    for (const r of raw) {
      const key = r.tokens.join(' ');
      if (!uniq.has(key)) uniq.set(key, r);
    }
    job.drafts = [...uniq.values()].slice(0, Math.max(K, 1));
  }

  /** Phase 2: every draft scored (features), then its expected chrF agreement with the others (MBR utility). */
  private refine(job: LineJob): void {
    const { text, qTok, dir, forced } = job;
    const srcChars = text.replace(/\s+/g, '').length;
    const cands: Candidate[] = [];
    const origins: CandidateOrigin[] = [];
    for (const r of job.drafts) {
      const f = this.features(qTok, r.tokens, dir, srcChars);
      if (r.overlap !== undefined) f.overlap = r.overlap;
      const shown = restoreTermForms(this.recase(r.tokens, dir), forced);
      cands.push({ text: capitalizeLike(detokenize(shown), text), strategy: r.strategy, score: this.combine(f), mbr: 0, features: f });
      origins.push({ used: r.used, hit: r.hit });
    }
    // MBR with chrF utility
    const counts = cands.map((c) => charNgramCounts(c.text));
    const maxS = Math.max(...cands.map((c) => c.score));
    const p = cands.map((c) => Math.exp((c.score - maxS) / this.temp));
    const Z = p.reduce((a, b) => a + b, 0) || 1;
    for (let i = 0; i < cands.length; i++) {
      let u = 0;
      for (let j = 0; j < cands.length; j++) {
        const st = chrfStatsFromCounts(counts[i], counts[j]);
        u += (p[j] / Z) * (i === j ? 1 : chrfFromStats(st));
      }
      cands[i].mbr = u;
    }
    job.candidates = cands;
    job.origins = origins;
  }

  /** The choice: the selectable candidate of highest MBR utility plus a share of its model score. */
  private select(job: LineJob): TranslateResult {
    const { text, dir, candidates, hits, forced, drafts } = job;
    // an example is a translation of the input only when it is a near duplicate of it; other examples inform the
    // MBR choice but are never the answer (the answer is then the best partial translation, marked as such);
    // every answer carries the glossary's required terms
    const selectable = (i: number): boolean =>
      (candidates[i].strategy !== 'nearest-example' || (candidates[i].features.overlap ?? 0) >= this.nearDuplicate) &&
      forced.every((f) => containsForced(drafts[i].tokens, f));
    const maxS = Math.max(...candidates.filter((_, i) => selectable(i)).map((c) => c.score));
    const gain = (c: Candidate): number => c.mbr + this.mbrScoreWeight * (c.score - maxS);
    let bi = -1;
    for (let i = 0; i < candidates.length; i++) if (selectable(i) && (bi < 0 || gain(candidates[i]) > gain(candidates[bi]))) bi = i;
    bi = Math.max(bi, 0);
    const best = candidates[bi];
    const origin = job.origins[bi];
    const applied = appliedTerms(
      text,
      job.surface,
      forced.filter((f) => containsForced(drafts[bi].tokens, f)),
    );
    const provenance: Provenance = job.opts?.explain
      ? this.explainProvenance(job, bi, applied)
      : {
          strategy: best.strategy,
          examples: (origin.hit ? [origin.hit] : hits.slice(0, 3)).map((h) => ({ id: h.id, score: h.score, source: h.source, target: h.target })),
          lexicon: origin.used.slice(0, 30),
        };
    const { spans, share } = this.untranslatedSpans(text, dir);
    const rawConfidence = Math.max(0, Math.min(1, (CONFIDENCE_MBR * best.mbr + CONFIDENCE_COVERAGE * best.features.coverage) * (1 - share)));
    return {
      translation: best.text.replace(/\s*\n\s*/g, ' '),
      confidence: calibrateConfidence(rawConfidence, this.calibrationFor(job.opts)),
      rawConfidence,
      appliedTerms: applied,
      untranslated: spans,
      candidates,
      provenance,
    };
  }

  /** With `explain`: the examples behind the candidates (the chosen one's first), the entries used, the glossary. */
  private explainProvenance(job: LineJob, bi: number, applied: AppliedTerm[]): Provenance {
    const { dir, hits } = job;
    const best = job.candidates[bi];
    const origin = job.origins[bi];
    // the chosen candidate's example, then the examples that gave candidates or read like the answer, closest first
    const answer = charNgramCounts(best.text);
    const likeness = (h: RetrievalHit): number => sentenceChrFOf(charNgramCounts(dir === 0 ? h.target : h.source), answer);
    const candidateHits = new Set(job.origins.map((o) => o.hit));
    const ranked = hits
      .map((h) => ({ h, like: likeness(h) }))
      .filter((x) => candidateHits.has(x.h) || x.like >= EXPLAIN_MIN_LIKENESS)
      .sort((a, b) => b.like - a.like)
      .map((x) => x.h);
    const shaping = [origin.hit, ...ranked].filter((h): h is RetrievalHit => !!h);
    const seenEx = new Set<string>();
    const examples: ProvenanceExample[] = [];
    for (const h of shaping.length ? shaping : hits.slice(0, 3)) {
      if (seenEx.has(h.id)) continue;
      seenEx.add(h.id);
      examples.push({ id: h.id, score: h.score, source: h.source, target: h.target, origin: job.extraIds.has(h.id) ? 'extra' : 'memory' });
    }
    const forcedKeys = new Set(job.forced.map((f) => job.qTok.slice(f.start, f.end).join(' ')));
    const outWords = new Set(modelTokens(best.text));
    const direction: Direction = dir === 0 ? 'forward' : 'reverse';
    const entries = [
      ...origin.used.filter((u) => !forcedKeys.has(u.source)).map((u) => ({ ...u, prob: this.entryProb(u.source, u.target, dir) })),
      ...lookupLexicon(this.model, job.text, direction).filter(
        (e) => e.prob >= MIN_LEX_PROB && isWordToken(e.source) && !forcedKeys.has(e.source) && modelTokens(e.target).every((w) => outWords.has(w)),
      ),
    ];
    const seenEntry = new Set<string>();
    const lexicon: LexiconUse[] = [];
    for (const e of entries) {
      const key = `${e.source}\t${e.target}`;
      if (e.prob <= 0 || seenEntry.has(key) || lexicon.length >= EXPLAIN_MAX_ENTRIES) continue;
      seenEntry.add(key);
      lexicon.push(e);
    }
    return { strategy: best.strategy, examples, lexicon, glossary: applied };
  }

  /** φ(t|s) of a phrase-table entry, else p(t|s) of a lexicon entry, else 0 (a copy or a back-off guess). */
  private entryProb(source: string, target: string, dir: 0 | 1): number {
    const m = this.model;
    const tab = m.tables[dir];
    const outV = m.sides[dir === 0 ? 1 : 0];
    const k = tab.keyIndex.get(source);
    if (k !== undefined)
      for (let o = tab.off[k]; o < tab.off[k + 1]; o++) {
        const words = Array.from(tab.tgtIds.subarray(tab.tgtOff[o], tab.tgtOff[o + 1]), (id) => outV.words[id]).join(' ');
        if (words === target) return Math.exp(tab.scores[4 * o]);
      }
    const id = m.sides[dir].index.get(source) ?? 0;
    const lex = m.lex[dir];
    if (id > 0) for (let x = lex.off[id]; x < lex.off[id + 1]; x++) if (lex.ids[x] !== 0 && outV.words[lex.ids[x]] === target) return lex.probs[x];
    return 0;
  }

  private calibrationFor(opts: TranslateOptions | undefined): ConfidenceCalibration | undefined {
    return opts?.calibration ?? this.calibration ?? this.model.calibration?.[opts?.direction ?? 'forward'];
  }

  /** The answer for an input identical to an extra example's side: its other side, exactly. */
  private exactResult(text: string, ex: ExtraExample, dir: 0 | 1, opts: TranslateOptions | undefined): TranslateResult {
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
  private finish(plan: Plan): TranslateResult {
    const parts = plan.work.map((w) => (w === null ? null : 'result' in w ? w.result : this.select(w.job)));
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

  /**
   * Spans of the input the agent has no translation for and that do not surely belong unchanged in the output
   * (left out of the translation, or copied when they may be a name): character offsets into `text` (UTF-16 code
   * units, `end` exclusive; adjacent words joined into one span), and the share of the input's word characters
   * they cover.
   */
  untranslatedSpans(text: string, dir: 0 | 1): { spans: UntranslatedSpan[]; share: number } {
    const surface = tokenize(text);
    const spans: UntranslatedSpan[] = [];
    let wordChars = 0;
    let missing = 0;
    let cursor = 0;
    for (let i = 0; i < surface.length; i++) {
      const tok = surface[i];
      const at = text.indexOf(tok, cursor);
      if (at >= 0) cursor = at + tok.length;
      if (!isWordToken(tok) || isLiteralToken(tok)) continue;
      wordChars += tok.length;
      if (this.translatable(normalizeToken(tok), dir) || this.targetStem(tok, dir) !== null) continue;
      const carry = this.carryKind(tok, i === 0 || SENTENCE_OPENERS.test(surface[i - 1]), dir);
      if (carry && carry !== 'maybe-name' && carry !== 'borrowed') continue;
      missing += tok.length;
      if (at < 0) continue;
      const last = spans[spans.length - 1];
      if (last && !text.slice(last.end, at).trim()) {
        last.end = at + tok.length;
        last.text = text.slice(last.start, last.end);
      } else spans.push({ start: at, end: at + tok.length, text: tok });
    }
    return { spans, share: wordChars ? missing / wordChars : 0 };
  }

  /**
   * Streams the translation: a status event as each phase starts (retrieve → candidates → refine), the translation in
   * word chunks, then `translation_complete` (or `error`, also when `signal` aborts).
   */
  async *translate(text: string, opts?: TranslateOptions & { signal?: AbortSignal }): AsyncIterable<EngineTranslationEvent> {
    const t0 = Date.now();
    const checkAborted = (): void => {
      if (opts?.signal?.aborted) throw new Error('Translation aborted');
    };
    const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));
    try {
      checkAborted();
      const plan = this.plan(text, opts);
      const jobs = planJobs(plan);
      yield { type: 'status', phase: 'retrieve', message: 'Retrieving similar examples from memory' };
      await nextTurn();
      checkAborted();
      for (const job of jobs) this.retrieveExamples(job);
      yield { type: 'status', phase: 'candidates', message: `Generating ${opts?.k ?? this.k} candidate translations` };
      await nextTurn();
      checkAborted();
      for (const job of jobs) this.generate(job);
      yield { type: 'status', phase: 'refine', message: 'Validating and refining candidates' };
      await nextTurn();
      checkAborted();
      for (const job of jobs) this.refine(job);
      const res = this.finish(plan);
      const words = res.translation.split(/(\s+)/).filter((x) => x.length);
      let chunk = '';
      for (const w of words) {
        chunk += w;
        if (/\S/.test(w)) {
          checkAborted();
          yield { type: 'translation_chunk', content: chunk };
          chunk = '';
        }
      }
      if (chunk) yield { type: 'translation_chunk', content: chunk };
      yield {
        type: 'translation_complete',
        final_translation: res.translation,
        response_time: (Date.now() - t0) / 1000,
        source_text: text,
        confidence: res.confidence,
        raw_confidence: res.rawConfidence,
        applied_terms: res.appliedTerms,
        untranslated: res.untranslated,
        provenance: res.provenance,
      };
    } catch (e) {
      yield { type: 'error', message: e instanceof Error ? e.message : String(e) };
    }
  }
}
