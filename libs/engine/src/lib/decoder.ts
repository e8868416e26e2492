/**
 * Phase 1, the decoder: monotone phrase-based beam search over the input tokens with the phrase table, the output
 * language's Kneser-Ney LM and its character LM (char-lm.ts), the length calibration, the cost of the last word
 * (sentence-ends.ts) and back-offs for unknown words (spelling variant, stem, copy or drop: unknown-words.ts).
 * Glossary spans are crossed only as a whole, by their required output; a suffix piece of a segmented output side
 * (subword.ts) is written only after a word it joins.
 *
 * Measured and not kept: local swaps of two adjacent phrases of up to two words each (their 3 best options each, at a
 * swap cost of −0.5 to −3): on the first 200 dev sentences × 8 languages average chrF and margin moved by at most
 * ±0.0005 in either direction (at 0 they fell 0.005), also with the suffix-piece rule, for twice the decoder's work.
 * Nor a word translated by suffix pieces alone written after the translation of the next phrase ('en las casas' →
 * 'wasi ᐩkuna ᐩpi' composed; 3 × 3 best options, at a cost of 0 / −1 / −3): first 200 dev es→xx margin quy +0.0012,
 * aym −0.0019, cni −0.0011, shp −0.0042 at 0 (−0.0009 at −3): the pieces took the place of Shipibo's own words ('Ja').
 */
import { CharLm } from './char-lm';
import { BOS, EOS } from './lm';
import type { AgentModel, ModelStats } from './model';
import type { ForcedSpan } from './glossary';
import { isPiece, joinPhrase, writtenLength } from './subword';
import { PHRASE_SCORE, PHRASE_SCORES_PER_OPTION } from './phrase-table';
import { lastWordAt, SentenceEnds, sentenceEndsOf } from './sentence-ends';
import { capitalized, endsWithMark, isLiteralToken, isNumberToken, isWordToken, normalizeToken, repeatsWord, sentenceStarts } from './tokenize';
import {
  BACKOFF_OPTIONS,
  BORROWED_COPY_PRIOR_WEIGHT,
  DecoderWeights,
  DROPPABLE_RANK,
  KNOWN_LOANWORD_COPY,
  LEXICON_OPTION_PENALTY,
  LEXICON_OPTIONS,
  MAX_PHRASE,
  MIN_LEX_PROB,
  SEEN_WORD_DROP_SHARE,
  UNJOINED_PIECE_MIN_LEAD,
} from './tuning';
import type { LexiconUse } from './types';
import { UnknownWords } from './unknown-words';

/** Settings of the decoder (from TranslatorOptions). */
export interface DecoderSettings {
  weights: DecoderWeights;
  beam: number;
  /** preferred output length relative to the learned length ratio, per direction */
  lengthTargets: [number, number];
  /** unknown words copied into reverse-direction output: all of them, or only names and numbers */
  reverseCopy: 'all' | 'names';
}

interface Hyp {
  score: number;
  u: number;
  v: number;
  prev: Hyp | null;
  out: string[];
  src: string;
  chars: number;
  /** the output ends with a word, which a suffix piece may join (subword.ts): not at the start or after punctuation */
  joinable: boolean;
  /** the output's last word (sentence-ends.ts lastWordAt; its LM id; 0: none yet, or a word the LM does not know) */
  last: number;
  /** the output's last characters, as the character LM reads them (char-lm.ts) */
  charCtx: number;
}

/** What a line's search keeps to, read once from its input. */
interface LineShape {
  /** an option starting with a suffix piece extends only a hypothesis whose output ends with a word (the piece joins it) */
  joinedPieces: boolean;
  /** the input writes a word twice in a row: so may the output */
  repeats: boolean;
  /** the input ends with a punctuation mark: an answer left open costs (sentence-ends.ts openCost) */
  closes: boolean;
}

/** One way to translate an input phrase: output words, their LM ids, translation-model score, output characters. */
interface PhraseOption {
  out: string[];
  ids: number[];
  tm: number;
  chars: number;
  /** extends only a hypothesis that a suffix piece could not join (`unjoinedPieceOption`) */
  unjoined?: boolean;
}

export interface DecodeResult {
  tokens: string[];
  score: number;
  used: LexiconUse[];
}

/** The output LM's id of an output word id (words beyond the LM's vocabulary are <unk> to it). */
export function lmWordId(model: AgentModel, dir: 0 | 1, id: number): number {
  const lm = model.lms[dir === 0 ? 1 : 0];
  return id < lm.data.V ? id : 0;
}

/**
 * Output characters per input character expected of one sentence in direction `dir`: the pairs' geometric mean ratio
 * (exp of the mean log ratio), not the ratio of the corpus' totals. The totals' ratio is the ratio of long pairs (a
 * pair weighs by its length, and long pairs have lower ratios: a short sentence's few fixed words weigh more), and
 * glosses or lists make it lopsided; the mean log ratio weighs every pair alike, as every sentence is decoded alone,
 * and is the centre the spread `logCharRatioStd` is measured around. From the stored mean ratio and that spread
 * (log-normal ratios: mean = exp(μ + σ²/2)); a model without a mean falls back to the totals' ratio.
 */
export function sentenceCharRatio(stats: ModelStats, dir: 0 | 1): number {
  const sd = stats.logCharRatioStd;
  const forward = stats.charRatioMean > 0 ? Math.exp(Math.log(stats.charRatioMean) - (sd * sd) / 2) : stats.charRatioCorpus;
  return dir === 0 ? forward : 1 / forward;
}

/**
 * A word translated by a suffix piece far more readily than by any word of its own (Spanish 'los' → Quechua -kuna,
 * seldom 'runa'), where no word precedes for the piece to join (the answer's start, after a mark): left out at the cost
 * of its best piece option instead of given that rare word ('los perros duermen.' came out 'runa anu ikini.'). Null
 * unless the word's best option is a piece that many nats (UNJOINED_PIECE_MIN_LEAD) ahead of its best word.
 */
function unjoinedPieceOption(opts: readonly PhraseOption[]): PhraseOption | null {
  let piece: PhraseOption | null = null;
  let word: PhraseOption | null = null;
  for (const o of opts) {
    if (!o.out.length) continue;
    if (isPiece(o.out[0])) {
      if (!piece || o.tm > piece.tm) piece = o;
    } else if (!word || o.tm > word.tm) word = o;
  }
  if (!piece || (word && piece.tm - word.tm <= UNJOINED_PIECE_MIN_LEAD)) return null;
  return { out: [], ids: [], tm: piece.tm, chars: 0, unjoined: true };
}

/** Phrase-table keys whose options a decoder keeps per direction before it empties its cache. */
const OPTION_CACHE_SIZE = 5000;

export class PhraseDecoder {
  private readonly w: DecoderWeights;
  private readonly beam: number;
  private readonly lengthTargets: [number, number];
  private readonly reverseCopy: 'all' | 'names';
  /** per direction: the options of the phrase-table keys decoded lately (the model and weights never change) */
  private readonly optionCache: [Map<number, PhraseOption[]>, Map<number, PhraseOption[]>] = [new Map(), new Map()];
  /** per direction: where its output language ends sentences */
  private readonly ends: [SentenceEnds, SentenceEnds];

  constructor(
    private readonly model: AgentModel,
    private readonly words: UnknownWords,
    settings: DecoderSettings,
  ) {
    this.w = settings.weights;
    this.beam = settings.beam;
    this.lengthTargets = settings.lengthTargets;
    this.reverseCopy = settings.reverseCopy;
    this.ends = [sentenceEndsOf(model.sides[1]), sentenceEndsOf(model.sides[0])];
  }

  /**
   * Monotone phrase-based beam search over normalized input tokens; `surface` gives copy forms. `starts`: where a word
   * may be capitalized for its place alone (`sentenceStarts` of the line; a span inside a line passes its part of the
   * line's, so a capitalized first word there is a name, not an opener, and a heading stays one).
   */
  decode(
    tokens: string[],
    surface: string[],
    dir: 0 | 1,
    nbest: number,
    forced: readonly ForcedSpan[] = [],
    starts: readonly boolean[] = sentenceStarts(surface),
  ): DecodeResult[] {
    if (tokens.length === 0) return [{ tokens: [], score: 0, used: [] }];
    // a suffix piece is written only where a word precedes it, unless no translation of the line can keep to that
    let finals = this.search(tokens, surface, starts, dir, forced, true);
    if (!finals.length) finals = this.search(tokens, surface, starts, dir, forced, false);
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
        used: parts.filter((p) => p.out.length).map((p) => ({ source: joinPhrase(p.src), target: joinPhrase(p.out.join(' ')), prob: 1 })),
      });
      if (res.length >= nbest) break;
    }
    return res;
  }

  /**
   * The beam search of `decode`: the final hypotheses, best first. With `joinedPieces` an option starting with a suffix
   * piece extends only hypotheses whose output ends with a word (the piece joins it).
   */
  private search(tokens: string[], surface: string[], starts: readonly boolean[], dir: 0 | 1, forced: readonly ForcedSpan[], joinedPieces: boolean): Hyp[] {
    const m = this.model;
    const tab = m.tables[dir];
    const outV = m.sides[dir === 0 ? 1 : 0];
    const inV = m.sides[dir];
    const lm = m.lms[dir === 0 ? 1 : 0];
    const W = this.w;
    const n = tokens.length;
    const stacks: Map<number, Hyp>[] = Array.from({ length: n + 1 }, () => new Map());
    stacks[0].set((BOS * lm.data.V + BOS) * 2, {
      score: 0,
      u: BOS,
      v: BOS,
      prev: null,
      out: [],
      src: '',
      chars: 0,
      joinable: false,
      last: 0,
      charCtx: CharLm.START,
    });
    // the written form of each input word capitalized inside the sentence (a name, or part of one), else null
    const capitals = surface.map((w, x) => (!starts[x] && capitalized(w) ? w : null));
    // expected output characters after each input position
    const ratio = sentenceCharRatio(m.stats, dir) * this.lengthTargets[dir];
    const expect = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) expect[i + 1] = expect[i] + ratio * writtenLength(surface[i]);
    // glossary constraints: a forced span is crossed only as a whole, by its required output
    const covered = forced.length ? new Int32Array(n).fill(-1) : null;
    forced.forEach((f, x) => covered?.fill(x, f.start, f.end));
    const shape: LineShape = {
      joinedPieces,
      repeats: repeatsWord(tokens),
      closes: endsWithMark(tokens),
    };
    for (let i = 0; i < n; i++) {
      const hyps = [...stacks[i].values()].sort((a, b) => b.score - a.score).slice(0, this.beam);
      if (!hyps.length) continue;
      const span = covered && covered[i] >= 0 ? forced[covered[i]] : null;
      for (let len = span ? span.end - i : 1; len <= (span ? span.end - i : MAX_PHRASE) && i + len <= n; len++) {
        if (!span && covered && covered[i + len - 1] >= 0) break;
        const key = len === 1 ? tokens[i] : tokens.slice(i, i + len).join(' ');
        if (span) {
          const ids = span.norm.map((w) => lmWordId(m, dir, outV.index.get(w) ?? 0));
          const required: PhraseOption = { out: span.out, ids, tm: 0, chars: span.out.reduce((a, w) => a + w.length, 0) };
          this.extend(hyps, [required], stacks[i + len], dir, i, len, n, key, expect, shape);
          continue;
        }
        let k = tab.keyIndex.get(key);
        let extra = 0;
        // an unknown word capitalized inside its sentence is a name: never read as a spelling variant or stem of a known word;
        // nor is a capitalized sentence opener whose variant or stem is a name in the data ('Ramona' of 'Ramón': another name)
        if (k === undefined && len === 1 && capitals[i] === null) {
          const stem = this.words.variantBackoff(key, dir) ?? this.words.stemBackoff(key, dir);
          if (stem !== null && !(capitalized(surface[i]) && this.words.writtenAsName(stem, dir))) {
            k = tab.keyIndex.get(stem);
            extra = W.stem;
          }
        }
        let opts: PhraseOption[] = [];
        if (k !== undefined) {
          // a key's options are the same on every call: built once (a single word's list gets more below)
          const keyed = this.keyOptions(dir, k);
          if (extra === 0) opts = len === 1 ? keyed.slice() : keyed;
          else {
            opts = keyed.map((o) => ({ ...o, tm: o.tm + extra }));
            // a back-off (variant or stem of an unknown word) is a guess: only its best few options are tried
            if (opts.length > BACKOFF_OPTIONS) opts.sort((x, y) => y.tm - x.tm).splice(BACKOFF_OPTIONS);
          }
        }
        if (len === 1) {
          const known = k !== undefined && extra === 0;
          const id = inV.index.get(tokens[i]) ?? 0;
          // the input side's data has the word (with a phrase of its own, or only inside longer ones)
          const seen = known || id > 0;
          if (!known && id > 0) {
            // a seen word without a phrase of its own (absorbed in longer phrases): lexicon or nothing
            const lex = m.lex[dir];
            for (let x = lex.off[id]; x < lex.off[id + 1] && x < lex.off[id] + LEXICON_OPTIONS; x++) {
              if (lex.ids[x] === 0 || lex.probs[x] < MIN_LEX_PROB) continue;
              const w = outV.words[lex.ids[x]];
              opts.push({
                out: [w],
                ids: [lmWordId(m, dir, lex.ids[x])],
                tm: (W.phiF + W.lexF + W.phiR + W.lexR) * Math.log(lex.probs[x]) + W.phrase + LEXICON_OPTION_PENALTY,
                chars: writtenLength(w),
              });
            }
            // a number seen without a phrase of its own is not left out (it is carried over below)
            if (!isNumberToken(surface[i])) opts.push({ out: [], ids: [], tm: W.drop * SEEN_WORD_DROP_SHARE, chars: 0 });
          } else if (!known) {
            // unknown word: copied only when it belongs in the output language (number, URL, name, loanword);
            // otherwise left out (and reported as untranslated); punctuation is copied
            // a suffix piece (subword.ts) is never copied on its own
            const carry = isPiece(surface[i]) ? null : isWordToken(surface[i]) ? this.words.carryKind(surface[i], starts[i], dir) : 'literal';
            // an inflected loanword is reduced to its output-language stem; a word that would be left out may be a near-cognate
            const own = carry === 'literal' || carry === 'target';
            const stem = own
              ? null
              : (this.words.targetStem(surface[i], dir, capitals[i] !== null) ?? (carry === null ? this.words.cognate(tokens[i], dir) : null));
            // into the agent's source language (as a rule the language that lends words) a possible loanword that is a
            // spelling variant or inflected form of a known word (`extra`: read through its back-off) is that word, and
            // so is a capitalized sentence opener no data shows, in either direction: only the back-off's translations
            // are offered
            const formOfKnown = extra !== 0 && ((dir === 1 && carry === 'borrowed') || carry === 'maybe-name');
            if (stem !== null) {
              const outId = outV.index.get(normalizeToken(stem)) ?? 0;
              opts.push({ out: [stem], ids: [lmWordId(m, dir, outId)], tm: W.copy + W.stem, chars: stem.length });
            } else if (formOfKnown) {
              // the back-off's options are already offered
            } else if (carry || this.reverseCopy === 'all') {
              const outId = carry === 'target' ? (outV.index.get(tokens[i]) ?? 0) : 0;
              // into the agent's source language a possible loanword is kept only as often as the data shows borrowing
              // (its back-off translation, if any, is then preferred)
              const prior = carry === 'borrowed' && dir === 1 ? BORROWED_COPY_PRIOR_WEIGHT * Math.log(this.words.borrowingRate(dir)) : 0;
              opts.push({ out: [surface[i]], ids: [lmWordId(m, dir, outId)], tm: W.copy + prior, chars: surface[i].length });
            } else opts.push({ out: [], ids: [], tm: k === undefined ? W.copy : W.drop, chars: 0 });
          }
          // numbers, URLs and e-mail addresses are carried over exactly even when the data gives them a translation, or
          // saw them only without one of their own ('000' of '2 000' in a pair that writes '2000')
          if (seen && isLiteralToken(surface[i])) opts.push({ out: [surface[i]], ids: [0], tm: 0, chars: surface[i].length });
          // a known loanword (a word of the output language too) may be kept as it is
          if (seen && this.words.knownLoanword(tokens[i], dir))
            opts.push({ out: [tokens[i]], ids: [lmWordId(m, dir, outV.index.get(tokens[i]) ?? 0)], tm: KNOWN_LOANWORD_COPY, chars: writtenLength(tokens[i]) });
          if (known && id > 0 && id < DROPPABLE_RANK) opts.push({ out: [], ids: [], tm: W.drop, chars: 0 });
          if (known && joinedPieces) {
            const unjoined = unjoinedPieceOption(opts);
            if (unjoined) opts.push(unjoined);
          }
        }
        if (len === 2 && k === undefined && capitals[i] !== null && isPiece(tokens[i + 1]) && !inV.index.has(tokens[i]))
          opts = this.piecesBeforeName(dir, tokens[i + 1], surface[i]);
        else if (
          len === 2 &&
          k === undefined &&
          capitals[i + 1] !== null &&
          (i + 2 === n || capitals[i + 2] === null) &&
          !isPiece(tokens[i]) &&
          !inV.index.has(tokens[i + 1])
        )
          opts = this.piecesAfterName(dir, tokens[i], surface[i + 1]);
        if (!opts.length) continue;
        opts = this.keepCapitals(opts, tokens, capitals, i, len);
        this.extend(hyps, opts, stacks[i + len], dir, i, len, n, key, expect, shape);
      }
    }
    return [...stacks[n].values()].sort((a, b) => b.score - a.score);
  }

  /**
   * The options of input span i..i+len-1 with each output word that writes a word of the span capitalized inside its
   * sentence (`capitals`: its written form) as it is written with that capital (a name or part of one: 'Ana', 'Teatro
   * Cívico'; the data may show it only opening sentences, or in lower case); the options themselves when the span
   * holds no such word.
   */
  private keepCapitals(opts: PhraseOption[], tokens: readonly string[], capitals: readonly (string | null)[], i: number, len: number): PhraseOption[] {
    let cap: Map<string, string> | null = null;
    for (let x = i; x < i + len; x++) {
      const c = capitals[x];
      if (c !== null) (cap ??= new Map()).set(tokens[x], c);
    }
    if (!cap) return opts;
    const found = cap;
    return opts.map((o) => (o.out.some((w) => found.has(w)) ? { ...o, out: o.out.map((w) => found.get(w) ?? w) } : o));
  }

  /**
   * A name the input side does not know followed by a suffix piece ('Londres ᐩpi', unknown-words.ts nameSplit): the
   * piece's translations written before the name, which is carried over as written ('en Londres'); the order the two
   * words are decoded in alone ('Londres en') stays an option, and the language model and the sentence end choose.
   */
  private piecesBeforeName(dir: 0 | 1, piece: string, name: string): PhraseOption[] {
    const k = this.model.tables[dir].keyIndex.get(piece);
    if (k === undefined) return [];
    return this.keyOptions(dir, k)
      .filter((o) => o.out.length > 0 && !isPiece(o.out[0]))
      .map((o) => ({ out: [...o.out, name], ids: [...o.ids, 0], tm: o.tm + this.w.copy, chars: o.chars + writtenLength(name) }));
  }

  /**
   * A word before a one-word name the input side does not know ('en Londres'), where the word's likeliest translation is
   * suffix pieces alone (the locative -pi): the name carried over as written with those pieces after it ('Londrespi'),
   * the mirror of `piecesBeforeName`; word by word the pieces would join the word before the name. Empty when the word
   * translates otherwise ('y' as a word of its own, seldom a piece; the two words are then decoded alone).
   */
  private piecesAfterName(dir: 0 | 1, word: string, name: string): PhraseOption[] {
    const k = this.model.tables[dir].keyIndex.get(word);
    if (k === undefined) return [];
    let best: PhraseOption | null = null;
    for (const o of this.keyOptions(dir, k)) if (!best || o.tm > best.tm) best = o;
    if (!best || best.out.length === 0 || !best.out.every(isPiece)) return [];
    return [{ out: [name, ...best.out], ids: [0, ...best.ids], tm: best.tm + this.w.copy, chars: best.chars + writtenLength(name) }];
  }

  /** The options of phrase-table key k of direction `dir` (cached; read only). */
  private keyOptions(dir: 0 | 1, k: number): PhraseOption[] {
    const cache = this.optionCache[dir];
    const hit = cache.get(k);
    if (hit) return hit;
    const m = this.model;
    const tab = m.tables[dir];
    const outV = m.sides[dir === 0 ? 1 : 0];
    const W = this.w;
    const opts: PhraseOption[] = [];
    const { from, to, tgtOff, tgtIds, scores: sc } = tab.options(k);
    for (let o = from; o < to; o++) {
      const ids = Array.from(tgtIds.subarray(tgtOff[o], tgtOff[o + 1]));
      const at = PHRASE_SCORES_PER_OPTION * o;
      const tm =
        W.phiF * sc[at + PHRASE_SCORE.phiF] +
        W.phiR * sc[at + PHRASE_SCORE.phiR] +
        W.lexF * sc[at + PHRASE_SCORE.lexF] +
        W.lexR * sc[at + PHRASE_SCORE.lexR] +
        W.phrase;
      const out = ids.map((id) => outV.words[id]);
      opts.push({ out, ids: ids.map((id) => lmWordId(m, dir, id)), tm, chars: out.reduce((a, w) => a + writtenLength(w), 0) });
    }
    if (cache.size >= OPTION_CACHE_SIZE) cache.clear();
    cache.set(k, opts);
    return opts;
  }

  /** Extends each hypothesis by each option covering input tokens i..i+len-1 into `target` (recombined by LM state and joinability). */
  private extend(
    hyps: Hyp[],
    opts: PhraseOption[],
    target: Map<number, Hyp>,
    dir: 0 | 1,
    i: number,
    len: number,
    n: number,
    key: string,
    expect: Float64Array,
    shape: LineShape,
  ): void {
    const W = this.w;
    const lm = this.model.lms[dir === 0 ? 1 : 0];
    const ends = this.ends[dir];
    const V = lm.data.V;
    // the options end the sentence (its end is scored with them)
    const endsHere = i + len === n;
    const clm = W.charLm ? this.model.charLms?.[dir === 0 ? 1 : 0] : undefined;
    for (const o of opts) {
      // a suffix piece joins the word before it: an option starting with one needs a hypothesis ending with a word
      const piece = shape.joinedPieces && o.out.length > 0 && isPiece(o.out[0]);
      // the option's first word, when it may not follow itself: a word the language model knows (a copy is none)
      const first = !shape.repeats && o.ids.length > 0 && o.ids[0] > 0 && isWordToken(o.out[0]) && !isPiece(o.out[0]) ? o.ids[0] : -1;
      const joins = o.out.length ? isWordToken(o.out[o.out.length - 1]) : null;
      // the option's last word, if it has one (else the hypothesis's stays the last)
      const ownLast = lastWordAt(o.out);
      // the option's characters, read once per option (char-lm.ts `spanOf`)
      const span = clm?.spanOf(o.out);
      for (const h of hyps) {
        if (piece && !h.joinable) continue;
        if (o.unjoined && h.joinable) continue;
        let u = h.u;
        let v = h.v;
        let lp = 0;
        for (const id of o.ids) {
          lp += lm.logProb(u, v, id);
          u = v;
          v = id;
        }
        const last = ownLast >= 0 ? o.ids[ownLast] : h.last;
        const chars = h.chars + o.chars;
        const dev = Math.abs(chars - expect[i + len]) - Math.abs(h.chars - expect[i]);
        let score = h.score + o.tm + W.lm * lp + W.word * o.ids.length + W.char * o.chars + W.len * dev;
        // how the option's characters read after the output's last ones (a model without a character LM: no score)
        let charCtx = h.charCtx;
        if (span) {
          score += W.charLm * (clm as CharLm).gainOf(h.charCtx, span, endsHere);
          charCtx = (clm as CharLm).contextAfter(h.charCtx, span, endsHere);
        }
        // a word written right after itself where neither the input nor the output language's data writes it so: two
        // input words of one translation ('… come mucho mucho.')
        if (first === h.v && !lm.seenBigram(first, first)) score += W.repeat;
        // the sentence ends: how readily the output language ends one with its last word, and with its last mark
        if (endsHere) score += W.lm * lm.logProb(u, v, EOS) + W.end * ends.endCost(last, u, v, shape.closes);
        const joinable = joins ?? h.joinable;
        // recombined by LM state and joinability (a copied word and a number are both the LM's unknown word); the last
        // two words mostly fix the last characters, and the better-scoring hypothesis keeps its own
        const sk = (u * V + v) * 2 + (joinable ? 1 : 0);
        const ex = target.get(sk);
        if (!ex || ex.score < score) target.set(sk, { score, u, v, prev: h, out: o.out, src: key, chars, joinable, last, charCtx });
      }
    }
  }
}
