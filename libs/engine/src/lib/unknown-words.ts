/**
 * Input words the model has no phrase for: spelling variants and stems of known words (back-offs), and whether an
 * unknown word belongs unchanged in the output (`carryKind`: numbers, names, loanwords…), with the spans of the input
 * left untranslated. Learned lazily from the model's vocabularies and cached per direction.
 */
import { Cognates } from './cognates';
import type { AgentModel } from './model';
import { FrontCodedKeys, PhraseKeyIndex } from './phrase-table';
import { PIECE_MARK, segmentWords, SUFFIXES_PER_WORD } from './subword';
import {
  ASCII_CASE_BIT,
  ASCII_END,
  UPPER_A,
  UPPER_Z,
  capitalized,
  capitalizedInside,
  capitalizedInsideLine,
  foldToken,
  isLiteralToken,
  isNumberToken,
  isWordToken,
  normalizeToken,
  sentenceStarts,
  tokenize,
} from './tokenize';
import {
  BORROWING_ENDING_LENGTH,
  BORROWING_ENDING_PRIOR,
  BORROWING_MIN_LENGTH,
  BORROWING_MIN_RATE,
  BORROWING_RARE,
  COGNATE_MIN_SPELLING,
  LOANWORD_MARGIN,
  MIN_LEX_PROB,
  NAME_SPLIT_MIN_GAIN,
  NAME_SPLIT_MIN_SCORE,
  NAME_STEM_MIN,
  NAME_SUFFIX_PRIOR_WEIGHT,
  SPELLING_MIN_ALPHABET,
  STEM_MIN_PREFIX,
  STEM_MIN_WORD_LENGTH,
  STEM_SCAN_LIMIT,
  TARGET_STEM_MIN,
  TARGET_STEM_SHARE,
  VARIANT_MAX_DISTANCE,
  VARIANT_MIN_LENGTH,
} from './tuning';
import type { UntranslatedSpan } from './types';
import { FIRST_WORD_ID, type SideVocab, wordCount } from './vocabulary';

/**
 * Why an input word may appear unchanged in the output: it is a number / URL / e-mail (`literal`), a name
 * (`name`), a word the output language's own data uses (`target`: loanwords such as 'documental'), a word
 * spelled like the output language rather than the input language (`loanword`: 'documentalbaon'), perhaps
 * a name (`maybe-name`: an unknown capitalized word opening a sentence) or perhaps a loanword (`borrowed`: a long
 * unknown word, when the agent's data shows the output language borrowing words of the input language).
 * `maybe-name` and `borrowed` words are copied but still reported as untranslated.
 */
export type CarryKind = 'literal' | 'name' | 'target' | 'loanword' | 'borrowed' | 'maybe-name';

/** Entries per cache before it is emptied. */
const CACHE_SIZE = 5000;
/** Initial length of the edit-distance rows (grown on demand). */
const EDIT_ROW_INITIAL = 64;

/**
 * Character trigram counts over the distinct words of one language (spelling model). Characters (code points) get
 * small ids; a bigram is a·alpha + b and a trigram (a·alpha + b)·alpha + c (alpha: the first power of two above the
 * number of ids, so the keys of an alphabet of up to 1,024 characters are small integers). The boundaries '^' and
 * '$' are those characters' own ids, as when they were joined into strings. Built in one pass over the vocabulary
 * into typed-array hashes (no per-gram objects).
 */
interface CharTrigrams {
  ids: Map<number, number>;
  alpha: number;
  tri: GramLookup;
  bi: GramLookup;
  total: number;
  letters: number;
}

/** Bound of the character ids (distinct code points of a vocabulary are far fewer; trigram keys stay below 2^51). */
const ALPHA_MAX = 1 << 17;
const WORD_START = '^'.charCodeAt(0);
const WORD_END = '$'.charCodeAt(0);
const HIGH_SURROGATE_MIN = 0xd800;
const HIGH_SURROGATE_MAX = 0xdbff;
const LOW_SURROGATE_MIN = 0xdc00;
const LOW_SURROGATE_MAX = 0xdfff;
const SUPPLEMENTARY_BASE = 0x10000;
const SURROGATE_BITS = 10;
/** Code points below this get their id through an array while the spelling model is built (others through the map). */
const FAST_CODE_POINTS = 0x10000;
/** Initial slots of a gram count hash (a power of two; doubled when half full). */
const GRAM_HASH_INITIAL = 1 << 12;
const TWO_POW_32 = 2 ** 32;

/**
 * A vocabulary's character gram counts as the model artifact stores them (so a loaded agent does not count them
 * again): the characters (code points) in id order, the gram keys ascending and their counts.
 */
export interface SpellingCounts {
  chars: Int32Array;
  triKeys: Float64Array;
  triCounts: Int32Array;
  biKeys: Float64Array;
  biCounts: Int32Array;
  /** `borrowingRateOf` the direction whose input side this vocabulary is (absent in older artifacts: learned when needed) */
  borrowing?: number;
}

/** The count of a gram key (0 for a gram never counted). */
interface GramLookup {
  get(key: number): number;
}

/** Stored gram counts, keys ascending: looked up where they are (binary search) instead of hashed again at load. */
class SortedGramCounts implements GramLookup {
  constructor(
    private readonly keys: Float64Array,
    private readonly counts: Int32Array,
  ) {}

  get(key: number): number {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid];
      if (k === key) return this.counts[mid];
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
}

/** Counts by integer key (< 2^53): open addressing over typed arrays, key -1 marks an empty slot. */
class GramCounts implements GramLookup {
  private keys = new Float64Array(GRAM_HASH_INITIAL).fill(-1);
  private counts = new Int32Array(GRAM_HASH_INITIAL);
  private used = 0;

  private slot(key: number): number {
    const mask = this.keys.length - 1;
    let h = Math.imul((key >>> 0) ^ Math.imul((key / TWO_POW_32) >>> 0, 0x9e3779b1), 0x85ebca6b);
    h = (h ^ (h >>> 13)) & mask;
    while (this.keys[h] !== key && this.keys[h] !== -1) h = (h + 1) & mask;
    return h;
  }

  add(key: number, count = 1): void {
    const h = this.slot(key);
    if (this.keys[h] === key) {
      this.counts[h] += count;
      return;
    }
    this.keys[h] = key;
    this.counts[h] = count;
    if (2 * ++this.used > this.keys.length) this.grow();
  }

  get(key: number): number {
    const h = this.slot(key);
    return this.keys[h] === key ? this.counts[h] : 0;
  }

  /** The keys ascending and their counts. */
  sorted(): { keys: Float64Array; counts: Int32Array } {
    const slots: number[] = [];
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] !== -1) slots.push(i);
    slots.sort((a, b) => this.keys[a] - this.keys[b]);
    return { keys: Float64Array.from(slots, (i) => this.keys[i]), counts: Int32Array.from(slots, (i) => this.counts[i]) };
  }

  private grow(): void {
    const keys = this.keys;
    const counts = this.counts;
    this.keys = new Float64Array(2 * keys.length).fill(-1);
    this.counts = new Int32Array(2 * keys.length);
    for (let i = 0; i < keys.length; i++)
      if (keys[i] !== -1) {
        const h = this.slot(keys[i]);
        this.keys[h] = keys[i];
        this.counts[h] = counts[i];
      }
  }
}

/** Code points of a word (as Array.from splits it: a lone surrogate is one), then '$'; '^' '^' before them. */
function codePoints(word: string, out: number[]): number {
  out[0] = WORD_START;
  out[1] = WORD_START;
  let n = 2;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= HIGH_SURROGATE_MIN && c <= HIGH_SURROGATE_MAX && i + 1 < word.length) {
      const d = word.charCodeAt(i + 1);
      if (d >= LOW_SURROGATE_MIN && d <= LOW_SURROGATE_MAX) {
        out[n++] = SUPPLEMENTARY_BASE + ((c - HIGH_SURROGATE_MIN) << SURROGATE_BITS) + (d - LOW_SURROGATE_MIN);
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  out[n++] = WORD_END;
  return n;
}

const cpBuf: number[] = [];

/** Lower-case ASCII letters (apostrophes and hyphens inside): a word token, not a literal, and its own folded form. */
const PLAIN_ASCII_WORD = /^[a-z][a-z'-]*$/;

/** Whether a token is a word that is not a literal (number, URL, e-mail), without the Unicode regexes for plain words. */
function isTextWord(w: string): boolean {
  return PLAIN_ASCII_WORD.test(w) || (isWordToken(w) && !isLiteralToken(w));
}

/** `foldToken`, without the Unicode normalizations for plain ASCII words (already folded). */
function foldWord(w: string): string {
  return PLAIN_ASCII_WORD.test(w) ? w : foldToken(w);
}

/** The spelling model of a vocabulary from its stored counts. */
function storedTrigrams(c: SpellingCounts): CharTrigrams {
  const ids = new Map<number, number>();
  for (let i = 0; i < c.chars.length; i++) ids.set(c.chars[i], i);
  let alpha = 1;
  while (alpha < ids.size) alpha *= 2;
  let total = 0;
  for (let i = 0; i < c.triCounts.length; i++) total += c.triCounts[i];
  return {
    ids,
    alpha,
    tri: new SortedGramCounts(c.triKeys, c.triCounts),
    bi: new SortedGramCounts(c.biKeys, c.biCounts),
    total,
    letters: Math.max(ids.size, SPELLING_MIN_ALPHABET),
  };
}

/**
 * The character gram counts of a vocabulary, to be stored with the model (null for an alphabet above ALPHA_MAX: such
 * a model gets no spelling model either). Every word position adds one trigram, so their counts sum to `total`.
 */
export function spellingCounts(words: string[]): SpellingCounts | null {
  if (!spellingAlphabetFits(words)) return null;
  const m = charTrigrams(words);
  const chars = new Int32Array(m.ids.size);
  for (const [cp, id] of m.ids) chars[id] = cp;
  const tri = m.tri.sorted();
  const bi = m.bi.sorted();
  return { chars, triKeys: tri.keys, triCounts: tri.counts, biKeys: bi.keys, biCounts: bi.counts };
}

function spellingAlphabetFits(words: string[]): boolean {
  const seen = new Set<number>([WORD_START, WORD_END]);
  for (let i = FIRST_WORD_ID; i < words.length && seen.size <= ALPHA_MAX; i++) {
    const w = words[i];
    if (!isTextWord(w)) continue;
    const n = codePoints(w, cpBuf);
    for (let j = 2; j < n - 1; j++) seen.add(cpBuf[j]);
  }
  return seen.size <= ALPHA_MAX;
}

function charTrigrams(words: string[]): CharTrigrams & { tri: GramCounts; bi: GramCounts } {
  const ids = new Map<number, number>();
  const fast = new Int32Array(FAST_CODE_POINTS).fill(-1);
  // the words as character ids one after the other, each with its boundaries; word i ends at ends[i]
  let seq = new Int32Array(1024);
  const ends: number[] = [];
  let len = 0;
  let total = 0;
  for (let i = FIRST_WORD_ID; i < words.length; i++) {
    const w = words[i];
    if (!isTextWord(w)) continue;
    const n = codePoints(w, cpBuf);
    if (len + n > seq.length) {
      const grown = new Int32Array(2 * (len + n));
      grown.set(seq);
      seq = grown;
    }
    for (let j = 0; j < n; j++) {
      const cp = cpBuf[j];
      let id = cp < FAST_CODE_POINTS ? fast[cp] : (ids.get(cp) ?? -1);
      if (id < 0) {
        id = ids.size;
        ids.set(cp, id);
        if (cp < FAST_CODE_POINTS) fast[cp] = id;
      }
      seq[len++] = id;
    }
    ends.push(len);
    total += n - 2;
  }
  if (ids.size > ALPHA_MAX) throw new Error(`spelling model: more than ${ALPHA_MAX} distinct characters`);
  let alpha = 1;
  while (alpha < ids.size) alpha *= 2;
  const tri = new GramCounts();
  const bi = new GramCounts();
  let from = 0;
  for (const end of ends) {
    for (let j = from + 2; j < end; j++) {
      const h = seq[j - 2] * alpha + seq[j - 1];
      tri.add(h * alpha + seq[j]);
      bi.add(h);
    }
    from = end;
  }
  return { ids, alpha, tri, bi, total, letters: Math.max(ids.size, SPELLING_MIN_ALPHABET) };
}

/** Add-one smoothed log probability of a word's spelling. */
function trigramLogProb(m: CharTrigrams, word: string): number {
  const n = codePoints(word, cpBuf);
  // a character the vocabulary never shows has no id: no gram with it was counted
  for (let j = 0; j < n; j++) cpBuf[j] = m.ids.get(cpBuf[j]) ?? -1;
  let lp = 0;
  for (let j = 2; j < n; j++) {
    const x = cpBuf[j - 2];
    const y = cpBuf[j - 1];
    const z = cpBuf[j];
    const h = x < 0 || y < 0 ? -1 : x * m.alpha + y;
    const triN = h < 0 || z < 0 ? 0 : m.tri.get(h * m.alpha + z);
    const biN = h < 0 ? 0 : m.bi.get(h);
    lp += Math.log((triN + 1) / (biN + m.letters));
  }
  return lp;
}

/** Slots of the borrowing rate's hash of output words at least, and slots per word at most (a power of two). */
const BORROWING_HASH_MIN_SLOTS = 64;
const BORROWING_HASH_LOAD_INVERSE = 2;

/** FNV-1a over the first BORROWING_MIN_LENGTH UTF-16 units of a word (at least that long). */
function headHash(w: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < BORROWING_MIN_LENGTH; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** The UTF-16 unit a folded form starts with (-1: empty), by which a `VariantIndex` groups its keys. */
function foldHead(fold: string): number {
  return fold.length ? fold.charCodeAt(0) : -1;
}

/** Characters below this are ASCII: folding such a first character only lower-cases it (and unifies the backquote). */
const BACKQUOTE = '`'.charCodeAt(0);
/** `letterMask` keeps the low 5 bits of a letter's code (a-z map to 26 distinct bits). */
const LETTER_BIT_MASK = 31;
const APOSTROPHE = "'".charCodeAt(0);

/** The spelling variants among the keys of one folded first character, indexed on the first lookup there. */
interface VariantGroup {
  /** the group's keys in key order, and their folded forms when already known */
  keys: string[];
  folds: (string | undefined)[];
  indexed: {
    /** folded form → its entry: the most frequent key with that form (the first of equally frequent ones) */
    folded: Map<string, number>;
    key: string[];
    fold: string[];
    freq: number[];
    /** `letterMask` of each folded form */
    mask: Int32Array;
    /** folded length → entries of at least VARIANT_MIN_LENGTH - 1 units, in the order their forms were first seen */
    byLength: Map<number, number[]>;
  } | null;
}

/**
 * Known single-word keys by folded form. Every candidate of a word shares the first unit of the word's folded form (an
 * equal form, or one in the bucket of that unit and a nearby length), so the keys are grouped by that unit (for a key
 * starting with an ASCII character, read from that character alone) and a group is folded and indexed on its first
 * lookup: a cold first translation folds the few groups its unknown words need instead of the whole vocabulary.
 */
class VariantIndex {
  private readonly groups = new Map<number, VariantGroup>();

  constructor(
    keys: readonly string[],
    private readonly freqOf: (k: string) => number,
  ) {
    for (const key of keys) {
      const c = key.charCodeAt(0);
      let fold: string | undefined;
      let head: number;
      if (c < ASCII_END) head = c >= UPPER_A && c <= UPPER_Z ? c | ASCII_CASE_BIT : c === BACKQUOTE ? APOSTROPHE : c;
      else {
        // only words are indexed: a key that is none is dropped here, before folding it (the others when indexed)
        if (!isTextWord(key)) continue;
        fold = foldWord(key);
        head = foldHead(fold);
      }
      const g = this.groups.get(head);
      if (g) {
        g.keys.push(key);
        g.folds.push(fold);
      } else this.groups.set(head, { keys: [key], folds: [fold], indexed: null });
    }
  }

  /** The group of a folded first unit, indexed (null when no key starts so). */
  group(head: number): NonNullable<VariantGroup['indexed']> | null {
    const g = this.groups.get(head);
    if (!g) return null;
    if (g.indexed) return g.indexed;
    const folded = new Map<string, number>();
    const key: string[] = [];
    const fold: string[] = [];
    const freq: number[] = [];
    for (let i = 0; i < g.keys.length; i++) {
      const k = g.keys[i];
      let f = g.folds[i];
      if (f === undefined) {
        if (!isTextWord(k)) continue;
        f = foldWord(k);
      }
      const n = this.freqOf(k);
      const ex = folded.get(f);
      if (ex === undefined) {
        folded.set(f, key.length);
        key.push(k);
        fold.push(f);
        freq.push(n);
      } else if (freq[ex] < n) {
        key[ex] = k;
        freq[ex] = n;
      }
    }
    const byLength = new Map<number, number[]>();
    for (let e = 0; e < fold.length; e++) {
      const len = fold[e].length;
      if (len < VARIANT_MIN_LENGTH - 1) continue;
      const b = byLength.get(len);
      if (b) b.push(e);
      else byLength.set(len, [e]);
    }
    const mask = new Int32Array(fold.length);
    for (let e = 0; e < fold.length; e++) mask[e] = letterMask(fold[e]);
    g.indexed = { folded, key, fold, freq, mask, byLength };
    g.keys = [];
    g.folds = [];
    return g.indexed;
  }
}

/** Every character of a side's words. */
function writtenChars(side: SideVocab): Set<string> {
  const chars = new Set<string>();
  for (let id = FIRST_WORD_ID; id < side.words.length; id++) for (const c of side.words[id]) chars.add(c);
  return chars;
}

/** The two rows `boundedEditDistance` computes in (grown for longer words). */
let rowA = new Int32Array(EDIT_ROW_INITIAL);
let rowB = new Int32Array(EDIT_ROW_INITIAL);
/**
 * Levenshtein distance of a and b when it is at most `max`, else `max + 1`. Only the band of cells within `max` of the
 * diagonal is computed (a path leaving it already costs more than `max`): a word's nearest spelling variant is
 * searched among every known word of about its length that starts alike, hundreds to thousands of pairs.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  const over = max + 1;
  if (Math.abs(n - m) > max) return over;
  if (rowA.length <= m + 1) {
    rowA = new Int32Array(2 * m + 2);
    rowB = new Int32Array(2 * m + 2);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= m; j++) prev[j] = Math.min(j, over);
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    // the cell left of the band (column 0: i deletions), and the one right of it the next row reads as its upper cell
    cur[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    if (hi < m) cur[hi + 1] = over;
    let rowMin = cur[lo - 1];
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      let v = prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return over;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[m], over);
}

/** The letters a word writes as bits of a 32-bit mask (a letter's UTF-16 code modulo 32: a few letters share a bit). */
export function letterMask(w: string): number {
  let m = 0;
  for (let i = 0; i < w.length; i++) m |= 1 << (w.charCodeAt(i) & LETTER_BIT_MASK);
  return m;
}

/**
 * The letters (bits of `letterMask`) word a writes and word b does not: a lower bound of their edit distance, as an
 * edit takes at most one letter of a away. Most known words of a variant's length share too few letters with it, and
 * this bound rules them out before their edit distance is computed.
 */
export function missingLetters(a: number, b: number): number {
  let x = a & ~b;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) | 0;
}

/** Edits a spelling variant of a folded form this long may differ by: VARIANT_MAX_DISTANCE per letter, at least one. */
function variantMaxEdits(length: number): number {
  return Math.max(1, Math.floor(VARIANT_MAX_DISTANCE * length));
}

function nearestVariant(ix: VariantIndex, word: string): string | null {
  const f = foldToken(word);
  const g = ix.group(foldHead(f));
  if (!g) return null;
  const same = g.folded.get(f);
  if (same !== undefined) return g.key[same] === word ? null : g.key[same];
  if (f.length < VARIANT_MIN_LENGTH) return null;
  const max = variantMaxEdits(f.length);
  let best = -1;
  let bestD = max + 1;
  const mask = letterMask(f);
  for (let len = f.length - max; len <= f.length + max; len++) {
    for (const e of g.byLength.get(len) ?? []) {
      const bound = Math.min(max, bestD);
      // a word this bound rules out would measure bound + 1 below: never chosen
      if (missingLetters(mask, g.mask[e]) > bound || missingLetters(g.mask[e], mask) > bound) continue;
      const d = boundedEditDistance(f, g.fold[e], bound);
      if (d < bestD || (d === bestD && best >= 0 && g.freq[e] > g.freq[best])) {
        if (d > variantMaxEdits(Math.max(f.length, g.fold[e].length))) continue;
        best = e;
        bestD = d;
      }
    }
  }
  return best >= 0 ? g.key[best] : null;
}

/** Single-word phrase keys sharing their first letters, sorted on first use. */
interface StemGroup {
  keys: string[];
  sorted: boolean;
}

/** Single-word phrase keys sharing their first UTF-16 unit: grouped by their first letters on first use. */
interface StemFirstUnit {
  keys: string[];
  groups: Map<string, StemGroup> | null;
}

/**
 * How much the output language of direction `dir` borrows words of its input language, learned from the agent's
 * vocabularies: the share of rare input words (≤ BORROWING_RARE occurrences, ≥ BORROWING_MIN_LENGTH letters) that the
 * output side also writes, alone or inflected (as the start of one of its words). Stored with the model
 * (`SpellingCounts.borrowing`), so a loaded agent does not go through both vocabularies for it.
 */
export function borrowingRateOf(model: Pick<AgentModel, 'sides'>, dir: 0 | 1): number {
  let rare = 0;
  let shared = 0;
  forEachRareWord(model, dir, (_, written) => {
    rare++;
    if (written) shared++;
  });
  return rare ? shared / rare : 0;
}

/**
 * Calls `visit` with each rare input word of direction `dir` (≤ BORROWING_RARE occurrences, ≥ BORROWING_MIN_LENGTH
 * letters) and whether the output side also writes it, alone or inflected (as the start of one of its words).
 */
function forEachRareWord(model: Pick<AgentModel, 'sides'>, dir: 0 | 1, visit: (word: string, written: boolean) => void): void {
  const inV = model.sides[dir];
  // the output words chained by a hash of their first BORROWING_MIN_LENGTH units (an input word asked about is at
  // least that long, and a word it starts shares them): typed arrays, no string cut out of each word
  const outWords = model.sides[dir === 0 ? 1 : 0].words;
  let cap = BORROWING_HASH_MIN_SLOTS;
  while (cap < BORROWING_HASH_LOAD_INVERSE * outWords.length) cap *= 2;
  const mask = cap - 1;
  const chain = new Int32Array(cap).fill(-1);
  const next = new Int32Array(outWords.length);
  for (let i = FIRST_WORD_ID; i < outWords.length; i++) {
    const s = outWords[i];
    if (s.length < BORROWING_MIN_LENGTH) continue;
    const h = headHash(s) & mask;
    next[i] = chain[h];
    chain[h] = i;
  }
  const startsSome = (w: string): boolean => {
    for (let j = chain[headHash(w) & mask]; j >= 0; j = next[j]) if (outWords[j].startsWith(w)) return true;
    return false;
  };
  for (let i = FIRST_WORD_ID; i < inV.words.length; i++) {
    const w = inV.words[i];
    if (inV.freq[i] > BORROWING_RARE || w.length < BORROWING_MIN_LENGTH || !isTextWord(w)) continue;
    visit(w, startsSome(w));
  }
}

/** The last BORROWING_ENDING_LENGTH characters (code points) of a normalized word: the shape its borrowing is judged by. */
function wordEnding(word: string): string {
  return Array.from(word).slice(-BORROWING_ENDING_LENGTH).join('');
}

/**
 * The rare input words of direction `dir` by ending (`wordEnding`): how many there are and how many of them the output
 * side also writes (see `forEachRareWord`).
 */
function borrowingByEnding(model: Pick<AgentModel, 'sides'>, dir: 0 | 1): Map<string, { rare: number; written: number }> {
  const byEnding = new Map<string, { rare: number; written: number }>();
  forEachRareWord(model, dir, (w, written) => {
    const e = wordEnding(w);
    let c = byEnding.get(e);
    if (!c) byEnding.set(e, (c = { rare: 0, written: 0 }));
    c.rare++;
    if (written) c.written++;
  });
  return byEnding;
}

export class UnknownWords {
  private readonly cognates: Cognates;

  constructor(
    private readonly model: AgentModel,
    /** stem back-off: minimum shared prefix as a fraction of the unknown word's length, per direction */
    private readonly stemMinRatio: [number, number],
  ) {
    this.cognates = new Cognates(model);
  }

  /**
   * The output-language word an unknown input word (normalized) is a near-cognate of ('kuchillu' → 'cuchillo'), if any:
   * only a word spelled like the output language (the output side's data also holds words of the input language).
   */
  cognate(word: string, dir: 0 | 1): string | null {
    const found = this.cognates.find(word, dir);
    return found !== null && this.looksLike(found, dir) > COGNATE_MIN_SPELLING ? found : null;
  }

  /**
   * Whether an input word the model cannot translate belongs unchanged in the output: numbers, URLs and e-mail
   * addresses always; names (capitalized inside a sentence, acronyms); words of the output language's own
   * vocabulary and words written with its letters whose spelling is far likelier in it (loanwords); `maybe-name`: a capitalized sentence opener no data of either language shows, copied
   * but still reported as untranslated. Anything else is not copied: it is reported as untranslated.
   */
  carryKind(surface: string, atSentenceStart: boolean, dir: 0 | 1): CarryKind | null {
    if (!isWordToken(surface)) return null;
    if (isLiteralToken(surface)) return 'literal';
    const w = normalizeToken(surface);
    const outV = this.model.sides[dir === 0 ? 1 : 0];
    if ((outV.index.get(w) ?? 0) >= FIRST_WORD_ID) return 'target';
    // a word with a letter the output language does not write is none of its loanwords
    if (this.writtenInOutput(w, dir)) {
      if (this.looksLike(w, dir) > LOANWORD_MARGIN) return 'loanword';
      if (w.length >= BORROWING_MIN_LENGTH && this.wordBorrowingRate(w, dir) >= BORROWING_MIN_RATE) return 'borrowed';
    }
    if (capitalized(surface)) {
      if (!atSentenceStart || /^\p{Lu}{2,}$/u.test(surface)) return 'name';
      if (!this.model.sides[dir].index.has(w)) return 'maybe-name';
    }
    return null;
  }

  /** Whether the input side's data writes a known word (normalized) capitalized inside its sentences: a name. */
  writtenAsName(word: string, dir: 0 | 1): boolean {
    const side = this.model.sides[dir];
    const id = side.index.get(word);
    return id !== undefined && capitalized(side.cased[id]);
  }

  /**
   * Whether a known input word (normalized) is also a word of the output language's data spelled like that language
   * (a loanword the agent has seen, such as 'televisor' in a Shipibo sentence): keeping it is one of its translations.
   */
  knownLoanword(word: string, dir: 0 | 1): boolean {
    // fewer UTF-16 units than BORROWING_MIN_LENGTH is fewer letters too: most words end here, before any lookup
    if (word.length < BORROWING_MIN_LENGTH) return false;
    if ((this.model.sides[dir === 0 ? 1 : 0].index.get(word) ?? 0) < FIRST_WORD_ID) return false;
    if (!isWordToken(word) || isLiteralToken(word) || Array.from(word).length < BORROWING_MIN_LENGTH) return false;
    return this.looksLike(word, dir) > LOANWORD_MARGIN;
  }

  /** Whether the model has a translation for an input word (phrase, lexicon entry or stem back-off). */
  translatable(word: string, dir: 0 | 1): boolean {
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
    // stored with the model (written from the same vocabularies), else learned from them now
    const rate = this.model.spelling?.[dir].borrowing ?? borrowingRateOf(this.model, dir);
    this.borrowing[dir] = rate;
    return rate;
  }

  private endings: [Map<string, { rare: number; written: number }> | null, Map<string, { rare: number; written: number }> | null] = [null, null];

  /** Per direction: the characters its output language writes (`writtenInOutput`), collected on first use. */
  private outputChars: [Set<string> | null, Set<string> | null] = [null, null];

  /**
   * Whether the output language's data writes every character of a word (normalized). Otomí dev text writes letters
   * and marks (ⴘ, a combining breve below) that neither side of its train data writes: no word with one is a Spanish
   * loanword, whatever the direction's borrowing rate (such words were copied into Spanish answers). A letter the data
   * writes however rarely is the language's: Shipibo writes 'ñ' 3 times in 520,000 characters, and its answers keep
   * Spanish words with it.
   */
  writtenInOutput(word: string, dir: 0 | 1): boolean {
    const chars = (this.outputChars[dir] ??= writtenChars(this.model.sides[dir === 0 ? 1 : 0]));
    for (const c of word) if (!chars.has(c)) return false;
    return true;
  }

  /**
   * How likely the output language is to borrow an input word (normalized) of its shape: the borrowing rate of the
   * rare input words sharing its ending (`wordEnding`), drawn towards the direction's `borrowingRate` by
   * BORROWING_ENDING_PRIOR words' worth of it (never below that rate). A direction whose rate reaches BORROWING_MIN_RATE
   * borrows words of any shape: its rate is the answer.
   */
  wordBorrowingRate(word: string, dir: 0 | 1): number {
    const rate = this.borrowingRate(dir);
    if (rate >= BORROWING_MIN_RATE) return rate;
    const byEnding = (this.endings[dir] ??= borrowingByEnding(this.model, dir));
    const c = byEnding.get(wordEnding(word));
    return c ? Math.max(rate, (c.written + BORROWING_ENDING_PRIOR * rate) / (c.rare + BORROWING_ENDING_PRIOR)) : rate;
  }

  /**
   * A name inflected by suffixes of the input language, split into the name and the suffix pieces ('Londrespi' →
   * 'Londres ᐩpi', 'Concordpim' → 'Concord ᐩpim'), or null: the word at position i of a line's written tokens when it
   * is capitalized inside its sentence (`capitalizedInside`; not an acronym), the input side's data does not know it,
   * the side is segmented (subword.ts) and the word ends in up to SUFFIXES_PER_WORD of its suffixes. A split must leave
   * at least NAME_STEM_MIN letters, and it is judged by how much more the name is spelled like the output language than
   * the whole word (log-likelihood ratio of the whole word, `nameGain`) plus NAME_SUFFIX_PRIOR_WEIGHT × how common its
   * suffixes are (`suffixPrior`: log of each one's count over the commonest suffix's), which must be above
   * NAME_SPLIT_MIN_SCORE ('Ramona' is no 'Ramo' with the suffix -na, but 'Ramonata' is 'Ramona' with the common -ta;
   * 'Washingtonpi' is 'Washington' + -pi, not 'Washingto' + the rarer -npi). The best split is taken, also where a
   * shorter name is a word of the output language's data ('Indiananko' is 'Indiana' + -nko, not 'India' + -na -nko).
   * The name is then carried over as written (without a hyphen before the suffix: 'Ramona-pe') and the suffixes
   * translated ('en Londres'), instead of the inflected word copied whole.
   */
  nameSplit(line: readonly string[], i: number, dir: 0 | 1): string[] | null {
    const suffixes = this.model.segmenters?.[dir];
    const surface = line[i];
    if (!suffixes || !capitalizedInside(line, i) || !/^\p{Lu}\p{Ll}/u.test(surface) || isLiteralToken(surface)) return null;
    const word = normalizeToken(surface);
    if (word.length !== surface.length || this.model.sides[dir].index.has(word)) return null;
    let best: { at: number; nameEnd: number; pieces: number[] } | null = null;
    let score = NAME_SPLIT_MIN_SCORE;
    for (let at = word.length - 1; at >= NAME_STEM_MIN; at--) {
      // a hyphen before the suffix ('Ramona-pe') is no part of the name
      const nameEnd = word[at - 1] === '-' ? at - 1 : at;
      const name = word.slice(0, nameEnd);
      if (Array.from(name).length < NAME_STEM_MIN) continue;
      const chain = this.suffixChain(word.slice(at), dir, SUFFIXES_PER_WORD);
      if (!chain) continue;
      const g = this.nameGain(name, word, dir) + NAME_SUFFIX_PRIOR_WEIGHT * chain.prior;
      if (g > score) {
        score = g;
        best = { at, nameEnd, pieces: chain.lengths };
      }
    }
    if (!best) return null;
    const out = [surface.slice(0, best.nameEnd)];
    let from = best.at;
    for (const n of best.pieces) {
      out.push(PIECE_MARK + surface.slice(from, from + n));
      from += n;
    }
    return out;
  }

  /**
   * The likeliest reading of `rest` as up to `depth` suffixes of the input side's inventory, each written in its data as
   * a piece: their lengths in order and the sum of their `suffixPrior`s; null when there is none.
   */
  private suffixChain(rest: string, dir: 0 | 1, depth: number): { lengths: number[]; prior: number } | null {
    let best: { lengths: number[]; prior: number } | null = null;
    const whole = this.suffixPrior(rest, dir);
    if (whole !== null) best = { lengths: [rest.length], prior: whole };
    if (depth > 1)
      for (let n = 1; n < rest.length; n++) {
        const first = this.suffixPrior(rest.slice(0, n), dir);
        if (first === null) continue;
        const tail = this.suffixChain(rest.slice(n), dir, depth - 1);
        if (tail && (!best || first + tail.prior > best.prior)) best = { lengths: [n, ...tail.lengths], prior: first + tail.prior };
      }
    return best;
  }

  /**
   * How common a suffix of the input side's inventory is: the log of its count as a piece in the side's data over the
   * commonest suffix's (0 for the commonest); null for a string that is no suffix of the inventory or never a piece.
   */
  private suffixPrior(suffix: string, dir: 0 | 1): number | null {
    const side = this.model.sides[dir];
    let priors = this.suffixPriors[dir];
    if (!priors) {
      priors = new Map();
      let most = 0;
      for (const s of this.model.segmenters?.[dir] ?? []) {
        const count = wordCount(side, PIECE_MARK + s);
        if (count > 0) priors.set(s, count);
        most = Math.max(most, count);
      }
      for (const [s, count] of priors) priors.set(s, Math.log(count / most));
      this.suffixPriors[dir] = priors;
    }
    return priors.get(suffix) ?? null;
  }

  /** per direction: `suffixPrior` of each suffix of the input side's inventory that its data writes as a piece */
  private suffixPriors: [Map<string, number> | null, Map<string, number> | null] = [null, null];

  /**
   * Longest proper prefix of an input word that is a word of the output language ('diciembrenin' → 'diciembre'); of a
   * name (`name`: capitalized inside its sentence) only where that prefix is spelled more like the output language than
   * the whole word by as much as `nameSplit` asks ('Texasain' is 'Texas', but 'Indiana' is no 'India' + -na).
   */
  targetStem(surface: string, dir: 0 | 1, name = false): string | null {
    const found = this.outputPrefix(surface, dir);
    return found !== null && name && this.nameGain(found, surface, dir) <= NAME_SPLIT_MIN_GAIN ? null : found;
  }

  /**
   * How much more a name cut from a word is spelled like the output language than the whole word: log-likelihood ratios
   * of whole words (output language over input language), in nats; the per-character ratio favours short stems.
   */
  private nameGain(name: string, word: string, dir: 0 | 1): number {
    const ratio = (w: string): number => this.looksLike(w, dir) * (Array.from(w).length + 1);
    return ratio(normalizeToken(name)) - ratio(normalizeToken(word));
  }

  /** Longest proper prefix (at least TARGET_STEM_MIN characters and TARGET_STEM_SHARE of it) of a word the output language's data writes. */
  private outputPrefix(surface: string, dir: 0 | 1): string | null {
    const cache = this.stemCache[dir];
    const hit = cache.get(surface);
    if (hit !== undefined) return hit;
    const outV = this.model.sides[dir === 0 ? 1 : 0];
    const chars = Array.from(surface);
    const min = Math.max(TARGET_STEM_MIN, Math.ceil(TARGET_STEM_SHARE * chars.length));
    let found: string | null = null;
    for (let n = chars.length - 1; n >= min && found === null; n--) {
      const pre = chars.slice(0, n).join('');
      if (!/[-'’]$/.test(pre) && (outV.index.get(normalizeToken(pre)) ?? 0) >= FIRST_WORD_ID) found = pre;
    }
    if (cache.size > CACHE_SIZE) cache.clear();
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
    if (!this.spelling) {
      const stored = this.model.spelling;
      this.spelling = stored
        ? [storedTrigrams(stored[0]), storedTrigrams(stored[1])]
        : [charTrigrams(this.model.sides[0].words), charTrigrams(this.model.sides[1].words)];
    }
    const out = this.spelling[dir === 0 ? 1 : 0];
    const inp = this.spelling[dir];
    const llr = !out.total || !inp.total ? 0 : (trigramLogProb(out, word) - trigramLogProb(inp, word)) / (Array.from(word).length + 1);
    if (cache.size > CACHE_SIZE) cache.clear();
    cache.set(word, llr);
    return llr;
  }

  private spellingCache: [Map<string, number>, Map<string, number>] = [new Map(), new Map()];

  private variantIndex: [VariantIndex | null, VariantIndex | null] = [null, null];
  private variantCache: [Map<string, string | null>, Map<string, string | null>] = [new Map(), new Map()];

  /**
   * Known single-word phrase key written almost like an unknown word (spelling variant: same letters without
   * diacritics, or within `variantMaxEdits` edits of the folded forms), the most frequent of the closest ones, if any.
   */
  variantBackoff(word: string, dir: 0 | 1): string | null {
    const cache = this.variantCache[dir];
    const hit = cache.get(word);
    if (hit !== undefined) return hit;
    let ix = this.variantIndex[dir];
    if (!ix) {
      const side = this.model.sides[dir];
      ix = new VariantIndex(this.singleWordKeys(dir), (k) => wordCount(side, k));
      this.variantIndex[dir] = ix;
    }
    const res = nearestVariant(ix, word);
    if (cache.size > CACHE_SIZE) cache.clear();
    cache.set(word, res);
    return res;
  }

  /**
   * The single-word phrase keys of at least STEM_MIN_PREFIX UTF-16 units by their first unit, then (on the first stem
   * asked there) those that are words by their first STEM_MIN_PREFIX units (a stem shares at least those with the
   * unknown word); a group is sorted when first asked about.
   */
  private stemGroups: [Map<number, StemFirstUnit> | null, Map<number, StemFirstUnit> | null] = [null, null];

  /**
   * The phrase table's single-word keys in key order. Those of a loaded table (keys stored as word ids) are found
   * through the input vocabulary, without writing out the text of every phrase.
   */
  private singleWordKeys(dir: 0 | 1): string[] {
    return (this.singles[dir] ??= this.listSingleWordKeys(dir));
  }

  /** The single-word keys of each direction once listed (the variant and the stem back-offs both read them). */
  private singles: [string[] | null, string[] | null] = [null, null];

  private listSingleWordKeys(dir: 0 | 1): string[] {
    const t = this.model.tables[dir];
    if (!(t.keyIndex instanceof PhraseKeyIndex || t.keyIndex instanceof FrontCodedKeys)) return t.keys.filter((k) => !k.includes(' '));
    return t.keyIndex.singleWordKeys();
  }

  /** Known single-word phrase key sharing the longest prefix with an unknown word (its stem), if any; a number has none. */
  stemBackoff(word: string, dir: 0 | 1): string | null {
    const len = Array.from(word).length;
    if (len < STEM_MIN_WORD_LENGTH || !isWordToken(word) || isNumberToken(word)) return null;
    let byFirst = this.stemGroups[dir];
    if (!byFirst) {
      byFirst = new Map();
      for (const k of this.singleWordKeys(dir)) {
        if (k.length < STEM_MIN_PREFIX) continue;
        const c = k.charCodeAt(0);
        const f = byFirst.get(c);
        if (f) f.keys.push(k);
        else byFirst.set(c, { keys: [k], groups: null });
      }
      this.stemGroups[dir] = byFirst;
    }
    // the keys sharing the longest prefix with the word are its neighbours in sorted order; when they share fewer than
    // STEM_MIN_PREFIX units there is no stem, else they and every key scanned below are in the word's group
    const first = byFirst.get(word.charCodeAt(0));
    if (!first) return null;
    if (!first.groups) {
      const groups = new Map<string, StemGroup>();
      for (const k of first.keys) {
        if (!isWordToken(k)) continue;
        const head = k.slice(0, STEM_MIN_PREFIX);
        const g = groups.get(head);
        if (g) g.keys.push(k);
        else groups.set(head, { keys: [k], sorted: false });
      }
      first.groups = groups;
      first.keys = [];
    }
    const group = first.groups.get(word.slice(0, STEM_MIN_PREFIX));
    if (!group) return null;
    if (!group.sorted) {
      group.keys.sort();
      group.sorted = true;
    }
    const keys = group.keys;
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
    if (best < STEM_MIN_PREFIX || best < this.stemMinRatio[dir] * word.length) return null;
    const freq = this.model.sides[dir].freq;
    const idx = this.model.sides[dir].index;
    let pick: string | null = null;
    let pf = -1;
    for (let i = lo - 1, n = 0; i >= 0 && n < STEM_SCAN_LIMIT && lcp(word, keys[i]) >= best; i--, n++) {
      const f = freq[idx.get(keys[i]) ?? 0] ?? 0;
      if (f > pf) {
        pf = f;
        pick = keys[i];
      }
    }
    for (let i = lo, n = 0; i < keys.length && n < STEM_SCAN_LIMIT && lcp(word, keys[i]) >= best; i++, n++) {
      const f = freq[idx.get(keys[i]) ?? 0] ?? 0;
      if (f > pf) {
        pf = f;
        pick = keys[i];
      }
    }
    return pick;
  }

  /** Word id of an input word, or of the known word it is a spelling variant or inflection of (0 if none). */
  inputId(w: string, dir: 0 | 1): number {
    const inV = this.model.sides[dir];
    const id = inV.index.get(w) ?? 0;
    if (id || !isWordToken(w)) return id;
    const cache = this.backoffIds[dir];
    const hit = cache.get(w);
    if (hit !== undefined) return hit;
    const back = this.variantBackoff(w, dir) ?? this.stemBackoff(w, dir);
    const res = back === null ? 0 : (inV.index.get(back) ?? 0);
    if (cache.size > CACHE_SIZE) cache.clear();
    cache.set(w, res);
    return res;
  }

  private backoffIds: [Map<string, number>, Map<string, number>] = [new Map(), new Map()];

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
    const starts = sentenceStarts(surface);
    const names = capitalizedInsideLine(surface, starts);
    for (let i = 0; i < surface.length; i++) {
      const tok = surface[i];
      const at = text.indexOf(tok, cursor);
      if (at >= 0) cursor = at + tok.length;
      if (!isWordToken(tok) || isLiteralToken(tok)) continue;
      wordChars += tok.length;
      // a word of a segmented side is translatable through its stem piece (subword.ts); a name is cut only by nameSplit
      const norm = normalizeToken(tok);
      const name = names[i];
      if (
        this.translatable(norm, dir) ||
        this.translatable(segmentWords(this.model, dir, [norm], undefined, () => name)[0], dir) ||
        this.targetStem(tok, dir, name) !== null ||
        // a name split from its suffix is carried over, and the suffix translated
        (name && this.nameSplit(surface, i, dir) !== null)
      )
        continue;
      const carry = this.carryKind(tok, starts[i], dir);
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
}
