/**
 * Subword segmentation of an agglutinative side (Morfessor-style suffix splitting learned from the agent's own data).
 *
 * A suffix is learned when many distinct words of the side are another word of the side plus that suffix
 * (Quechua wasi / wasikuna / wasipi, Shipibo joni / jonibo); a word is then written as its stem followed by its
 * suffixes, each suffix a separate token marked with PIECE_MARK ('wasikunapi' → 'wasi ᐩkuna ᐩpi'). Alignment, phrase
 * extraction, lexicons and the language model of that side work on these pieces, so an inflected form never seen
 * in the data is still translated through its stem and suffixes; output pieces are joined back (`joinPieces`).
 * A side is segmented only when it is clearly more inflected than the other (distinct words per token).
 */
import type { ForcedSpan } from './glossary';
import type { AgentModel } from './model';
import { capitalizedInsideLine, isLiteralToken, isWordToken, normalizeToken } from './tokenize';
import { modelTokens } from './vocabulary';

/** Marks a token that continues the previous word (a suffix). A letter, so the piece stays a word token. */
export const PIECE_MARK = 'ᐩ';

/** Segments only a side with at least this many times the other side's distinct words per token. */
const INFLECTION_RATIO = 1.3;
/** Suffix lengths (characters) that are considered. */
const SUFFIX_MIN = 2;
const SUFFIX_MAX = 6;
/** A stem keeps at least this many characters. */
const STEM_MIN = 3;
/** A suffix is kept when at least this many distinct stems take it. */
const SUFFIX_MIN_STEMS = 6;
/**
 * An unknown word whose stem is no known word either (a bound root, a loanword) is still split when the stem keeps at
 * least UNKNOWN_STEM_MIN characters and every suffix split off has at least UNKNOWN_SUFFIX_MIN (a short ending of an
 * unknown word is too often part of its root).
 */
const UNKNOWN_STEM_MIN = 7;
const UNKNOWN_SUFFIX_MIN = 3;
/**
 * At most this many suffixes are learned, and at most SUFFIXES_PER_WORD are split off one word.
 *
 * Measured and not kept (first 200 dev × 8, average margin es→xx / xx→es 0.1239 / 0.1177 with these): 800 suffixes
 * (only aym's and nah's inventories reach 400: nah +0.003 / +0.002, aym −0.003 / 0.000) 0.1239 / 0.1179; 4 suffixes per
 * word 0.1238 / 0.1182 (nah +0.003 both ways, aym es→xx −0.004, shp xx→es −0.001); bound stems — a stem that is no
 * word alone but is left by ≥ 2 (or ≥ 3) different suffixes of the side's words, such as Nahuatl 'coa' of 'coatl' and
 * 'coameh', taken as known for splitting — 0.1220 / 0.1177 (≥ 3: 0.1237 / 0.1177; quy es→xx chrF −0.010, shp xx→es
 * margin +0.004 to +0.007, cni −0.006).
 * Prefixes split off as pieces joined to the next word ('niᐩ'; a prefix taken by ≥ 6 words that are words alone, the
 * 20 commonest), for the prefixing sides (Guarani, Ashaninka, Nahuatl person prefixes), in eleven variants: 1–4 letters
 * 0.1239 / 0.1158 (one-letter 'prefixes' are mostly a word's first consonant); split only unknown words at
 * translation 0.1239 / 0.1173; 2–3 letters before a known word of ≥ 4, two per word, 0.1248 / 0.1182 — the best of
 * the eleven on the same 200 sentences, within the noise of choosing among them, and from the suffixing sides (aym,
 * shp, quy: first parts of compounds) while gn and cni moved −0.001 to +0.001 and nah xx→es −0.002: not kept.
 */
const MAX_SUFFIXES = 400;
export const SUFFIXES_PER_WORD = 3;

/** Suffix inventory of one side (longest first), or null when the side is not segmented. */
export type Segmenter = string[] | null;

/** Distinct words per token of a tokenized side. */
function typeTokenRatio(sents: string[][]): number {
  const types = new Set<string>();
  let n = 0;
  for (const s of sents)
    for (const w of s)
      if (isWordToken(w)) {
        types.add(w);
        n++;
      }
  return n ? types.size / n : 0;
}

/** Learns the suffix inventory of `sents` (normalized tokens): suffixes taken by many words that are also words alone. */
export function learnSuffixes(sents: string[][]): string[] {
  const types = new Set<string>();
  for (const s of sents) for (const w of s) if (isWordToken(w) && !isLiteralToken(w)) types.add(w);
  const stems = new Map<string, number>();
  for (const w of types) {
    const ch = Array.from(w);
    for (let n = SUFFIX_MIN; n <= SUFFIX_MAX && ch.length - n >= STEM_MIN; n++) {
      if (types.has(ch.slice(0, ch.length - n).join(''))) {
        const suf = ch.slice(ch.length - n).join('');
        if (/^\p{L}+$/u.test(suf)) stems.set(suf, (stems.get(suf) ?? 0) + 1);
      }
    }
  }
  return [...stems.entries()]
    .filter(([, c]) => c >= SUFFIX_MIN_STEMS)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_SUFFIXES)
    .map(([s]) => s)
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** Suffix inventories for both sides of a tokenized corpus: only the clearly more inflected side gets one. */
export function learnSegmenters(S: string[][], T: string[][]): [Segmenter, Segmenter] {
  const rs = typeTokenRatio(S);
  const rt = typeTokenRatio(T);
  const learn = (sents: string[][]): Segmenter => {
    const suf = learnSuffixes(sents);
    return suf.length ? suf : null;
  };
  if (rt >= INFLECTION_RATIO * rs) return [null, learn(T)];
  if (rs >= INFLECTION_RATIO * rt) return [learn(S), null];
  return [null, null];
}

/**
 * Character lengths of the suffixes of `word` (in order) that leave a known stem, or null: the longest suffix whose
 * remainder is a known word or itself a known stem with suffixes.
 */
function suffixSplit(word: string, suffixes: Set<string>, known: (w: string) => boolean, depth: number, minSuffix = SUFFIX_MIN): number[] | null {
  if (depth === 0) return null;
  for (let n = Math.min(SUFFIX_MAX, word.length - STEM_MIN); n >= minSuffix; n--) {
    const s = word.slice(word.length - n);
    if (!suffixes.has(s)) continue;
    const rest = word.slice(0, word.length - n);
    if (known(rest)) return [s.length];
    const inner = suffixSplit(rest, suffixes, known, depth - 1, minSuffix);
    if (inner) return [...inner, s.length];
  }
  return null;
}

/**
 * Character lengths of the pieces of one word (stem first); one piece when no split leaves a known stem, or, for an
 * unknown word, a long enough stem and long enough suffixes. An unknown name stays whole (see segmentTokens).
 */
function pieceLengths(word: string, suffixes: Set<string>, known: (w: string) => boolean, name: boolean): number[] {
  if (!isWordToken(word) || isLiteralToken(word) || word.startsWith(PIECE_MARK) || (name && !known(word))) return [word.length];
  const tail =
    suffixSplit(word, suffixes, known, SUFFIXES_PER_WORD) ??
    (known(word) ? null : suffixSplit(word, suffixes, (stem) => stem.length >= UNKNOWN_STEM_MIN, SUFFIXES_PER_WORD, UNKNOWN_SUFFIX_MIN));
  if (!tail) return [word.length];
  return [word.length - tail.reduce((a, b) => a + b, 0), ...tail];
}

/** Suffix inventories as sets, built once per inventory. */
const suffixSets = new WeakMap<string[], Set<string>>();

/**
 * Splits the words of `tokens` into stem and marked suffix pieces, where the stem is `known` (a word of the side's
 * data); `surface` (same words, original case) is split at the same places when given, so copies keep their form.
 * A word that `name` says is a name (at its position) and that the side's data does not know stays whole: a name is cut
 * only where its spelling says (unknown-words.ts nameSplit), not at any stem that fits ('Indiana' is no known 'India' +
 * -na, 'Washington' no unknown root 'Washing' + -ton).
 */
export function segmentTokens(tokens: string[], seg: Segmenter, known: (w: string) => boolean, surface?: string[], name?: (i: number) => boolean): string[] {
  if (!seg) return surface ?? tokens;
  let set = suffixSets.get(seg);
  if (!set) suffixSets.set(seg, (set = new Set(seg)));
  const out: string[] = [];
  tokens.forEach((t, i) => {
    const src = surface ? surface[i] : t;
    const lens = pieceLengths(t, set, known, name?.(i) ?? false);
    if (lens.length === 1 || src.length !== t.length) {
      out.push(src);
      return;
    }
    let at = 0;
    lens.forEach((n, j) => {
      out.push((j ? PIECE_MARK : '') + src.slice(at, at + n));
      at += n;
    });
  });
  return out;
}

/** Whether a token is a suffix piece (continues the previous word). */
export function isPiece(tok: string): boolean {
  return tok.startsWith(PIECE_MARK);
}

/** Characters a token adds to the joined text (a piece's mark is not written). */
export function writtenLength(tok: string): number {
  return isPiece(tok) ? tok.length - PIECE_MARK.length : tok.length;
}

/** Joins marked suffix pieces back onto the word before them ('wasi ᐩkuna' → 'wasikuna'); a leading piece loses its mark. */
export function joinPieces(tokens: string[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (!isPiece(t)) out.push(t);
    else if (out.length && isWordToken(out[out.length - 1])) out[out.length - 1] += t.slice(PIECE_MARK.length);
    else if (t.length > PIECE_MARK.length) out.push(t.slice(PIECE_MARK.length));
  }
  return out;
}

/** Joins pieces inside a space-separated phrase ('wasi ᐩkuna' → 'wasikuna'). */
export function joinPhrase(text: string): string {
  return joinPieces(text.split(' ')).join(' ');
}

/**
 * Normalized words of one side of a model split into the pieces that side is modelled in (`surface`: same split, as
 * written; `name`: which words are names, see segmentTokens).
 */
export function segmentWords(m: AgentModel, side: 0 | 1, words: string[], surface?: string[], name?: (i: number) => boolean): string[] {
  const idx = m.sides[side].index;
  return segmentTokens(words, m.segmenters?.[side] ?? null, (w) => idx.has(w), surface, name);
}

/** Model tokens of a text of one side, in that side's pieces. */
export function sideTokens(m: AgentModel, side: 0 | 1, text: string): string[] {
  return segmentWords(m, side, modelTokens(text));
}

/** An input line in the pieces of the model: tokens, written forms, glossary spans re-indexed (their words kept whole). */
export interface PieceInput {
  qTok: string[];
  surface: string[];
  forced: ForcedSpan[];
}

/**
 * The model's view of an input line of side `side` (the line itself when that side is not segmented). `splitName`
 * (a word's position in the line) may split a word the side's data does not know into pieces first, as written (a name
 * and its suffix: unknown-words.ts nameSplit).
 */
export function pieceInput(
  m: AgentModel,
  side: 0 | 1,
  line: { qTok: string[]; surface: string[]; forced: ForcedSpan[] },
  splitName?: (i: number) => string[] | null,
): PieceInput {
  if (!m.segmenters?.[side]) return line;
  // a name (capitalized inside its sentence) the data does not know stays whole
  const names = capitalizedInsideLine(line.surface);
  const name = (i: number): boolean => names[i];
  if (!line.forced.length && !splitName) {
    const surface = segmentWords(m, side, line.qTok, line.surface, name);
    return { qTok: surface.map(normalizeToken), surface, forced: [] };
  }
  const whole = new Uint8Array(line.qTok.length);
  for (const f of line.forced) whole.fill(1, f.start, f.end);
  const qTok: string[] = [];
  const surface: string[] = [];
  const at = new Int32Array(line.qTok.length + 1);
  line.qTok.forEach((t, i) => {
    at[i] = qTok.length;
    const sur = whole[i] ? [line.surface[i]] : (splitName?.(i) ?? segmentWords(m, side, [t], [line.surface[i]], () => name(i)));
    for (const p of sur) {
      surface.push(p);
      qTok.push(whole[i] ? t : normalizeToken(p));
    }
  });
  at[line.qTok.length] = qTok.length;
  return { qTok, surface, forced: line.forced.map((f) => ({ ...f, start: at[f.start], end: at[f.end] })) };
}
