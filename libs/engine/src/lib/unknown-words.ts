/**
 * Input words the model has no phrase for: spelling variants and stems of known words (back-offs), and whether an
 * unknown word belongs unchanged in the output (`carryKind`: numbers, names, loanwords…), with the spans of the input
 * left untranslated. Learned lazily from the model's vocabularies and cached per direction.
 */
import { Cognates } from './cognates';
import type { AgentModel } from './model';
import { PhraseKeyIndex } from './phrase-table';
import { segmentWords } from './subword';
import { foldToken, isLiteralToken, isWordToken, normalizeToken, tokenize } from './tokenize';
import {
  BORROWING_MIN_LENGTH,
  BORROWING_MIN_RATE,
  BORROWING_RARE,
  COGNATE_MIN_SPELLING,
  LOANWORD_MARGIN,
  MIN_LEX_PROB,
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
import { FIRST_WORD_ID } from './vocabulary';

/**
 * Why an input word may appear unchanged in the output: it is a number / URL / e-mail (`literal`), a name
 * (`name`), a word the output language's own data uses (`target`: loanwords such as 'documental'), a word
 * spelled like the output language rather than the input language (`loanword`: 'documentalbaon'), perhaps
 * a name (`maybe-name`: an unknown capitalized word opening a sentence) or perhaps a loanword (`borrowed`: a long
 * unknown word, when the agent's data shows the output language borrowing words of the input language).
 * `maybe-name` and `borrowed` words are copied but still reported as untranslated.
 */
export type CarryKind = 'literal' | 'name' | 'target' | 'loanword' | 'borrowed' | 'maybe-name';

/** Tokens after which a capitalized word starts a sentence (and may be capitalized for that reason only). */
export const SENTENCE_OPENERS = /^[.!?¿¡:;"«“(]$/;
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
  tri: GramCounts;
  bi: GramCounts;
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
}

/** Counts by integer key (< 2^53): open addressing over typed arrays, key -1 marks an empty slot. */
class GramCounts {
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

  /** Counts of keys given with their counts (stored ones). */
  static of(keys: Float64Array, counts: Int32Array): GramCounts {
    const out = new GramCounts();
    for (let i = 0; i < keys.length; i++) out.add(keys[i], counts[i]);
    return out;
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
    tri: GramCounts.of(c.triKeys, c.triCounts),
    bi: GramCounts.of(c.biKeys, c.biCounts),
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

function charTrigrams(words: string[]): CharTrigrams {
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

interface VariantIndex {
  /** folded form → most frequent key with that form */
  folded: Map<string, { key: string; freq: number }>;
  /** first folded letter + length → entries */
  buckets: Map<number, { fold: string; key: string; freq: number }[]>;
}

/** Bucket of the folded words starting like `fold` with `len` UTF-16 units: first unit and length as one number. */
function variantBucket(fold: string, len: number): number {
  return fold.charCodeAt(0) * TWO_POW_32 + len;
}

function buildVariantIndex(keys: string[], freqOf: (k: string) => number): VariantIndex {
  const folded = new Map<string, { key: string; freq: number }>();
  for (const key of keys) {
    const f = foldWord(key);
    const freq = freqOf(key);
    const ex = folded.get(f);
    if (!ex || ex.freq < freq) folded.set(f, { key, freq });
  }
  const buckets = new Map<number, { fold: string; key: string; freq: number }[]>();
  for (const [fold, e] of folded) {
    if (fold.length < VARIANT_MIN_LENGTH - 1) continue;
    const bucket = variantBucket(fold, fold.length);
    const b = buckets.get(bucket) ?? [];
    b.push({ fold, key: e.key, freq: e.freq });
    buckets.set(bucket, b);
  }
  return { folded, buckets };
}

/** Levenshtein distance of a and b, or `max + 1` as soon as it exceeds `max`. */
let rowA = new Int32Array(EDIT_ROW_INITIAL);
let rowB = new Int32Array(EDIT_ROW_INITIAL);
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
    for (const e of ix.buckets.get(variantBucket(f, len)) ?? []) {
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

/** Single-word phrase keys sharing their first letters, sorted on first use. */
interface StemGroup {
  keys: string[];
  sorted: boolean;
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
   * vocabulary and words whose spelling is far likelier in the output language (loanwords); `maybe-name`: a capitalized sentence opener no data of either language shows, copied
   * but still reported as untranslated. Anything else is not copied: it is reported as untranslated.
   */
  carryKind(surface: string, atSentenceStart: boolean, dir: 0 | 1): CarryKind | null {
    if (!isWordToken(surface)) return null;
    if (isLiteralToken(surface)) return 'literal';
    const w = normalizeToken(surface);
    const outV = this.model.sides[dir === 0 ? 1 : 0];
    if ((outV.index.get(w) ?? 0) >= FIRST_WORD_ID) return 'target';
    if (this.looksLike(w, dir) > LOANWORD_MARGIN) return 'loanword';
    if (w.length >= BORROWING_MIN_LENGTH && this.borrowingRate(dir) >= BORROWING_MIN_RATE) return 'borrowed';
    if (/^\p{Lu}/u.test(surface)) {
      if (!atSentenceStart || /^\p{Lu}{2,}$/u.test(surface)) return 'name';
      if (!this.model.sides[dir].index.has(w)) return 'maybe-name';
    }
    return null;
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
    const inV = this.model.sides[dir];
    // the output words by their first BORROWING_MIN_LENGTH characters (an input word asked about is at least that long)
    const byStart = new Map<string, string[]>();
    const outWords = this.model.sides[dir === 0 ? 1 : 0].words;
    for (let i = FIRST_WORD_ID; i < outWords.length; i++) {
      const s = outWords[i];
      if (s.length < BORROWING_MIN_LENGTH) continue;
      const head = s.slice(0, BORROWING_MIN_LENGTH);
      const list = byStart.get(head);
      if (list) list.push(s);
      else byStart.set(head, [s]);
    }
    const startsSome = (w: string): boolean => byStart.get(w.slice(0, BORROWING_MIN_LENGTH))?.some((s) => s.startsWith(w)) ?? false;
    let rare = 0;
    let shared = 0;
    for (let i = FIRST_WORD_ID; i < inV.words.length; i++) {
      const w = inV.words[i];
      if (inV.freq[i] > BORROWING_RARE || w.length < BORROWING_MIN_LENGTH || !isTextWord(w)) continue;
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
      ix = buildVariantIndex(this.singleWordKeys(dir).filter(isTextWord), (k) => side.freq[side.index.get(k) ?? 0] ?? 0);
      this.variantIndex[dir] = ix;
    }
    const res = nearestVariant(ix, word);
    if (cache.size > CACHE_SIZE) cache.clear();
    cache.set(word, res);
    return res;
  }

  /**
   * The single-word phrase keys that are words, by their first STEM_MIN_PREFIX UTF-16 units (a stem shares at least
   * those with the unknown word); a group is sorted when first asked about.
   */
  private stemGroups: [Map<string, StemGroup> | null, Map<string, StemGroup> | null] = [null, null];

  /**
   * The phrase table's single-word keys in key order. Those of a loaded table (keys stored as word ids) are found
   * through the input vocabulary, without writing out the text of every phrase.
   */
  private singleWordKeys(dir: 0 | 1): string[] {
    const t = this.model.tables[dir];
    if (!(t.keyIndex instanceof PhraseKeyIndex)) return t.keys.filter((k) => !k.includes(' '));
    return t.keyIndex.singleWordKeys();
  }

  /** Known single-word phrase key sharing the longest prefix with an unknown word (its stem), if any. */
  stemBackoff(word: string, dir: 0 | 1): string | null {
    const len = Array.from(word).length;
    if (len < STEM_MIN_WORD_LENGTH || !isWordToken(word)) return null;
    let groups = this.stemGroups[dir];
    if (!groups) {
      groups = new Map();
      for (const k of this.singleWordKeys(dir)) {
        if (k.length < STEM_MIN_PREFIX || !isWordToken(k)) continue;
        const head = k.slice(0, STEM_MIN_PREFIX);
        const g = groups.get(head);
        if (g) g.keys.push(k);
        else groups.set(head, { keys: [k], sorted: false });
      }
      this.stemGroups[dir] = groups;
    }
    // the keys sharing the longest prefix with the word are its neighbours in sorted order; when they share fewer than
    // STEM_MIN_PREFIX units there is no stem, else they and every key scanned below are in the word's group
    const group = groups.get(word.slice(0, STEM_MIN_PREFIX));
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
    for (let i = 0; i < surface.length; i++) {
      const tok = surface[i];
      const at = text.indexOf(tok, cursor);
      if (at >= 0) cursor = at + tok.length;
      if (!isWordToken(tok) || isLiteralToken(tok)) continue;
      wordChars += tok.length;
      // a word of a segmented side is translatable through its stem piece (subword.ts)
      const norm = normalizeToken(tok);
      if (this.translatable(norm, dir) || this.translatable(segmentWords(this.model, dir, [norm])[0], dir) || this.targetStem(tok, dir) !== null) continue;
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
}
