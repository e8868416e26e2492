/**
 * Character n-gram language model of one side: interpolated Witten-Bell estimates of order CHAR_LM_ORDER over the
 * side's text as the decoder writes it (lower-case tokens joined by spaces, a suffix piece joined to the word before
 * it), stored in back-off form. The word trigram LM (lm.ts) knows a word or not; on an agglutinative side most words
 * of an answer are rare, and it backs off to their unigram counts. The characters see how words are built and where
 * one ends and the next starts, so the decoder prefers options that read as the language is written ('…kunapi' over
 * '…pikuna'). The decoder adds the gain of an option's characters over the side's mean (`gainOf`), not their
 * log-probability, which would cost every character and shorten answers.
 *
 * A character is an 8-bit id (the side's commonest CHAR_LM_MAX_ALPHABET characters; any other is OTHER_CHAR), and an
 * n-gram is its ids packed oldest first, 8 bits each (< 2^40 at order 5, exact in a double), and the context the
 * decoder carries (the last order − 1 characters) a 32-bit integer. Ids start at 1, so an n-gram's key also tells its
 * length and all orders share one sorted key column.
 *
 * Stored: every n-gram's key and how often the side writes it (`charGrams<d>`, `charCounts<d>`), the 5-grams seen once
 * left out. The log-probabilities, contexts and back-off weights follow from the counts alone, and are computed when the
 * model is first used (a few milliseconds; a learned model computes them by the same function, so a loaded copy answers
 * exactly as the learned one): a count deflates to about 0.6 bytes, where the 16-bit log-probabilities, contexts and
 * back-off weights the first artifacts stored (`clm<d>Keys`, `clm<d>LogP`, `clm<d>Ctx`, `clm<d>Bow`, still read) took
 * 3 bytes and more per n-gram.
 */
import { ArtifactFormatError, ArtifactReader, ArtifactWriter } from './artifact-codec';
import { ContextRanges, KEY_BLOCK, LogProbCache, mix, SortedKeys } from './lm';
import { PIECE_MARK } from './subword';
import { CHAR_LM_MEAN_SAMPLE, CHAR_LM_ORDER } from './tuning';

/** Values one character id takes (8 bits). */
const CHAR_BITS = 8;
const CHAR_BASE = 1 << CHAR_BITS;
/** The bits of a context's last character. */
const LAST_CHAR = CHAR_BASE - 1;
/** The highest order: a context (the last order − 1 characters) fits 32 bits. */
const CHAR_LM_MAX_ORDER = 5;
/** A character outside the alphabet. */
const OTHER_CHAR = 1;
/** The start and the end of a sentence. */
const BOUNDARY = 2;
/** The space between two tokens. */
const SPACE = 3;
/** The commonest character's id. */
const FIRST_CHAR = 4;
/** Characters with an id of their own, at most. */
const CHAR_LM_MAX_ALPHABET = CHAR_BASE - FIRST_CHAR;
/** Slots of the log-probability cache at most (lm.ts LogProbCache: 16 bytes each, 1 MB). */
const CHAR_CACHE_MAX_SLOTS = 1 << 16;
/** Options' character spans kept at most (`spanOf`), and the bytes one holds at most (a Map entry, ids of a few words). */
const SPAN_CACHE_MAX = 1 << 14;
const SPAN_CACHE_ENTRY_BYTES = 160;
/** Top-order n-grams seen at most this often are not stored: a context's count less its stored continuations' counts is
 *  the number of those it left out (each seen once), so its back-off weight follows from the stored counts. */
const TOP_ORDER_LEFT_OUT = 1;
/** Odd multipliers mixing an n-gram key into a slot (32-bit multiplicative hashing), and a context into one. */
const HASH_CHAR = 0x85ebca77;
const HASH_MIX = 0x9e3779b1;
const HASH_CONTEXT = 0xc2b2ae3d;

/** What the artifact's meta holds of a character LM (`charLm<d>`). */
interface StoredCharLmMeta {
  order: number;
  alphabet: string;
  /** the mean log-probability of a character of the side's text under the model cut to order 1, 2, …, order */
  means: number[];
}

/** The meta of the first stored form (`clm<d>`: log-probabilities and back-off weights stored, in 16 bits). */
interface LogProbCharLmMeta {
  order: number;
  alphabet: string;
  meanLogProb: number;
  /** the back-off weight of the empty context (the unigram level) */
  bow0: number;
}

/** A character LM as stored: its n-grams (all orders, ascending keys) and their counts. */
interface CharLmCounts {
  keys: Float64Array;
  counts: Int32Array;
}

/** Characters of an option as the character LM reads them (`CharLm.span`). */
export interface CharSpan {
  ids: Uint8Array;
  /** log-probability of the characters order − 1 or more into the span (their context lies within it) */
  inner: number;
  /** the context after the span, whatever came before it (a span of order characters or more), else null */
  after: number | null;
}

/** The stored n-grams of a character LM (all orders), ascending keys with their log-probabilities, and its contexts. */
interface CharLmTables {
  keys: SortedKeys;
  logp: Float32Array;
  /** every context's key (orders 1..order−1), ascending, and its back-off weight */
  ctxKeys: SortedKeys;
  bow: Float32Array;
  /** the back-off weight of the empty context (the unigram level) */
  bow0: number;
}

/** Where a character LM's tables come from: its counts (learned or stored), or the first stored form's tables. */
type CharLmSource = { counts: () => CharLmCounts } | { tables: () => CharLmTables };

export class CharLm {
  private readonly ids: Map<string, number>;
  private readonly spans = new Map<readonly string[], CharSpan>();
  /** log-probabilities looked up, by context and character (allocated at the first lookup, grown as needed) */
  private cache: LogProbCache | null = null;
  /** where each context met lies in the tables: its row and the range of its continuations (lm.ts ContextRanges) */
  private ranges: ContextRanges | null = null;
  /** the bits of a context's last order − 1 characters (`next`) */
  private readonly ctxMask: number;
  /** log of the uniform probability of a character (what no n-gram gives) */
  private readonly floor: number;
  /** the tables, once computed or read (a loaded model computes them at its first translation into its side) */
  private held: CharLmTables | null = null;

  private constructor(
    readonly order: number,
    /** the characters with ids of their own, commonest first (id FIRST_CHAR + index) */
    private readonly alphabet: string,
    private readonly source: CharLmSource,
    /** the mean log-probability of a character of the side's own text under the model cut to order 1, 2, …, order
     *  (`gainOf` reads the last; a model in the first stored form knows only that one; `train` sets them once learned) */
    private means: readonly number[],
  ) {
    if (order > CHAR_LM_MAX_ORDER) throw new Error(`a character LM of order ${order}: at most ${CHAR_LM_MAX_ORDER}`);
    this.ids = alphabetIds(alphabet);
    this.ctxMask = order > CHAR_LM_MAX_ORDER - 1 ? -1 : (1 << (CHAR_BITS * (order - 1))) - 1;
    // ids OTHER_CHAR.. (id 0 is no character)
    this.floor = -Math.log(FIRST_CHAR - OTHER_CHAR + this.ids.size);
  }

  /** The mean log-probability of a character of the side's own text (`gainOf`). */
  get meanLogProb(): number {
    return this.means[this.means.length - 1];
  }

  private get tables(): CharLmTables {
    if (this.held) return this.held;
    const s = this.source;
    // (a loaded model's counts are decoded for this and then dropped: only `write` reads them again)
    return (this.held = 'tables' in s ? s.tables() : tablesOf(s.counts(), this.order, Math.exp(this.floor)));
  }

  /** The context a sentence starts from. */
  static readonly START = BOUNDARY;

  /** Learns the model from a side's sentences (tokens as the decoder writes them: pieces marked with PIECE_MARK). */
  static train(lines: readonly (readonly string[])[]): CharLm {
    const order = CHAR_LM_ORDER;
    const freq = new Map<string, number>();
    const texts = lines.map(textOf);
    for (const t of texts) for (const c of t) if (c !== ' ') freq.set(c, (freq.get(c) ?? 0) + 1);
    const alphabet = [...freq.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, CHAR_LM_MAX_ALPHABET)
      .map(([c]) => c)
      .join('');
    const ids = alphabetIds(alphabet);
    const seqs = texts.map((t) => {
      const q = [BOUNDARY];
      for (const c of t) q.push(charIdOf(ids, c));
      q.push(BOUNDARY);
      return Uint8Array.from(q);
    });
    const counts = countedGrams(seqs, order);
    const lm = new CharLm(order, alphabet, { counts: () => counts }, []);
    lm.means = lm.meansOver(seqs);
    return lm;
  }

  /**
   * The mean log-probability of a character of `seqs` (every k-th sentence, about CHAR_LM_MEAN_SAMPLE characters) under
   * the model cut to each order 1..order: the model cut to order k gives a character the probability the whole model
   * gives it after the last k − 1 characters alone (`withOrder`).
   */
  private meansOver(seqs: readonly Uint8Array[]): number[] {
    const total = seqs.reduce((a, q) => a + q.length, 0);
    const stride = Math.max(1, Math.ceil(total / CHAR_LM_MEAN_SAMPLE));
    const sums = new Float64Array(this.order);
    let n = 0;
    for (let k = 0; k < seqs.length; k += stride) {
      const q = seqs[k];
      let c = BOUNDARY;
      for (let i = 1; i < q.length; i++) {
        for (let o = 1; o <= this.order; o++) sums[o - 1] += this.logProb(o === this.order ? c : c & lastChars(o - 1), q[i]);
        c = this.next(c, q[i]);
        n++;
      }
    }
    return Array.from(sums, (x) => (n ? x / n : 0));
  }

  /**
   * The model cut to order k (its n-grams of order k and below, stored in fewer bytes): a character's probability is the
   * one this model gives it after the last k − 1 characters alone (every n-gram below the top order is stored, so their
   * estimates and back-off weights are the same). This model itself at its own order or above; null for a model in the
   * first stored form (its lower orders' mean log-probabilities are not known).
   */
  withOrder(k: number): CharLm | null {
    if (k >= this.order) return this;
    const s = this.source;
    if ('tables' in s || this.means.length !== this.order || k < 1) return null;
    const all = s.counts();
    let end = 0;
    while (end < all.keys.length && all.keys[end] < CHAR_BASE ** k) end++;
    const cut: CharLmCounts = { keys: all.keys.subarray(0, end), counts: all.counts.subarray(0, end) };
    return new CharLm(k, this.alphabet, { counts: () => cut }, this.means.slice(0, k));
  }

  /** log P(c | the last characters of ctx), backing off through the shorter contexts. */
  private logProb(ctx: number, c: number): number {
    // a key (u V + v) V + w of the word LM's cache: u the context's older characters, v its last, w the character
    const h = LogProbCache.hash(ctx >>> CHAR_BITS, ctx & LAST_CHAR, c);
    const key = (ctx >>> 0) * CHAR_BASE + c;
    const cache = (this.cache ??= new LogProbCache(CHAR_CACHE_MAX_SLOTS, CHAR_BASE));
    const hit = cache.get(h, key);
    if (!Number.isNaN(hit)) return hit;
    const t = this.tables;
    const ranges = (this.ranges ??= new ContextRanges());
    let len = 0;
    for (let x = ctx >>> 0; x > 0; x >>>= CHAR_BITS) len++;
    // the longest context (its last n characters) with an n-gram ending in c; each longer one seen adds its back-off
    let acc = 0;
    for (let n = len; n >= 1; n--) {
      // the context's last n characters (a key of the tables: not negative)
      const low = (n === len ? ctx : ctx & lastChars(n)) >>> 0;
      const at = ranges.find(mix(Math.imul(low | 0, HASH_CONTEXT)), low, t.ctxKeys, t.keys, CHAR_BASE);
      const row = ranges.row[at];
      // a context the data never shows has no n-gram (every stored n-gram's context is stored)
      if (row < 0) continue;
      const i = t.keys.indexIn(low * CHAR_BASE + c, ranges.lo[at], ranges.hi[at]);
      if (i >= 0) {
        cache.set(h, key, acc + t.logp[i]);
        return acc + t.logp[i];
      }
      acc += t.bow[row];
    }
    // the unigram (its key is the character's id), or the uniform floor after the empty context's back-off
    const i = t.keys.indexIn(c, 0, Math.min(CHAR_BASE, t.keys.length));
    const lp = i >= 0 ? t.logp[i] : t.bow0 + this.floor;
    cache.set(h, key, acc + lp);
    return acc + lp;
  }

  /**
   * The characters of tokens as written after a word (a space before each word, a piece joined to the token before it),
   * with the log-probability of those that no context before them changes (order − 1 or more into the span): an option
   * read once is scored after each hypothesis by its first characters alone.
   */
  span(toks: readonly string[]): CharSpan {
    const out: number[] = [];
    for (const t of toks) {
      const piece = t.startsWith(PIECE_MARK);
      if (!piece) out.push(SPACE);
      for (const ch of (piece ? t.slice(PIECE_MARK.length) : t).toLowerCase()) out.push(charIdOf(this.ids, ch));
    }
    const ids = Uint8Array.from(out);
    let inner = 0;
    let c = 0;
    for (let x = 0; x < ids.length; x++) {
      if (x >= this.order - 1) inner += this.logProb(c, ids[x]);
      c = this.next(c, ids[x]);
    }
    // its last order − 1 characters are its own even at a sentence's start, where its first (a space) is not written
    return { ids, inner, after: ids.length >= this.order ? c : null };
  }

  /** `span` of an option's tokens, kept for the same array of tokens (an option's, which the decoder reads on every
   *  line that has its phrase; at most SPAN_CACHE_MAX arrays, forgotten all at once when full). */
  spanOf(toks: readonly string[]): CharSpan {
    let span = this.spans.get(toks);
    if (!span) {
      if (this.spans.size >= SPAN_CACHE_MAX) this.spans.clear();
      this.spans.set(toks, (span = this.span(toks)));
    }
    return span;
  }

  /** Log-probability of writing a span after a context (START at a sentence's start: no space before its first word),
   *  and the sentence's end after it if `end`. */
  logProbOf(ctx: number, span: CharSpan, end: boolean): number {
    const ids = span.ids;
    const start = opensSentence(ctx, span);
    let lp = 0;
    let c = ctx;
    // at a sentence's start the span's first characters are read without its space: every one is scored here
    const upTo = start ? ids.length : Math.min(ids.length, this.order - 1);
    for (let x = start ? 1 : 0; x < upTo; x++) {
      lp += this.logProb(c, ids[x]);
      c = this.next(c, ids[x]);
    }
    if (!start) lp += span.inner;
    return end ? lp + this.logProb(this.contextAfter(ctx, span, false), BOUNDARY) : lp;
  }

  /** The context after `c` when character `id` is written: its last order − 1 characters (8 bits each, in 32-bit
   *  integer arithmetic: a modulo of a double calls out of the compiled code, and the decoder asks this for each option
   *  after each hypothesis). */
  private next(c: number, id: number): number {
    return ((c << CHAR_BITS) | id) & this.ctxMask;
  }

  /**
   * How much likelier a span's characters are after `ctx` than the side's average characters (`logProbOf` less the mean
   * log-probability per character scored): what the decoder adds. The log-probability alone costs every character,
   * so it also shortens answers (full dev es→xx: tar 0.755 → 0.726 of the reference length, shp 1.037 → 1.014 with
   * chrF −0.0039); by the gain, a character of the side's usual spelling costs nothing and length is left to the length
   * model.
   */
  gainOf(ctx: number, span: CharSpan, end: boolean): number {
    const scored = span.ids.length - (opensSentence(ctx, span) ? 1 : 0) + (end ? 1 : 0);
    return this.logProbOf(ctx, span, end) - this.meanLogProb * scored;
  }

  /** The context after writing a span (and the sentence's end if `end`) after `ctx`: its last order − 1 characters. */
  contextAfter(ctx: number, span: CharSpan, end: boolean): number {
    let c = span.after;
    if (c === null) {
      const ids = span.ids;
      c = ctx;
      for (let x = Math.max(opensSentence(ctx, span) ? 1 : 0, ids.length - this.order + 1); x < ids.length; x++) c = this.next(c, ids[x]);
    }
    return end ? this.next(c, BOUNDARY) : c;
  }

  /** Bytes the tables hold (once read), and at most the caches. */
  get byteSize(): number {
    const t = this.held;
    const tables = t ? t.keys.byteSize + t.logp.byteLength + t.ctxKeys.byteSize + t.bow.byteLength : 0;
    return tables + LogProbCache.bytesBoundOf(CHAR_CACHE_MAX_SLOTS) + ContextRanges.byteSize + SPAN_CACHE_MAX * SPAN_CACHE_ENTRY_BYTES;
  }

  /** Writes side d's model: its counts (`charGrams<d>`, `charCounts<d>`), or a model read in the first stored form as
   *  it was read. */
  write(w: ArtifactWriter, d: number): void {
    if ('tables' in this.source) {
      const t = this.tables;
      const prefix = `clm${d}`;
      w.meta(prefix, { order: this.order, alphabet: this.alphabet, meanLogProb: this.meanLogProb, bow0: t.bow0 } satisfies LogProbCharLmMeta);
      w.sortedKeyBlocks(`${prefix}Keys`, t.keys.all(), KEY_BLOCK).quantized(`${prefix}LogP`, t.logp);
      w.sortedKeyBlocks(`${prefix}Ctx`, t.ctxKeys.all(), KEY_BLOCK).quantized(`${prefix}Bow`, t.bow);
      return;
    }
    const c = this.source.counts();
    w.meta(`charLm${d}`, { order: this.order, alphabet: this.alphabet, means: [...this.means] } satisfies StoredCharLmMeta)
      .sortedKeys(`charGrams${d}`, c.keys)
      .uints(`charCounts${d}`, c.counts);
  }

  /** Whether an artifact holds the two sides' character LMs (artifacts written before them do not: the decoder goes
   *  without). */
  static stored(r: ArtifactReader): boolean {
    return r.has('charGrams0') || r.has('clm0Keys');
  }

  /** Side d's model of an artifact: its tables are computed (or, in the first stored form, decoded) at its first use
   *  (a loaded agent that never translates into this side, or not yet, holds only their stored bytes). */
  static read(r: ArtifactReader, d: number): CharLm {
    if (!r.has(`charGrams${d}`)) return CharLm.readLogProbs(r, `clm${d}`);
    const m = r.meta<StoredCharLmMeta>(`charLm${d}`);
    const names = [`charGrams${d}`, `charCounts${d}`];
    const valid = validMeta(m) && Array.isArray(m.means) && m.means.length === m.order && m.means.every(Number.isFinite);
    if (!valid || !r.has(names[1]) || r.count(names[0]) !== r.count(names[1])) throw new ArtifactFormatError(`character LM ${d} is corrupt`);
    const stored = r.extract(names);
    return new CharLm(m.order, m.alphabet, { counts: () => ({ keys: stored.float64(names[0]), counts: stored.int32(names[1]) }) }, m.means);
  }

  /** A model in the first stored form (log-probabilities, contexts and back-off weights in 16-bit codes). */
  private static readLogProbs(r: ArtifactReader, prefix: string): CharLm {
    const m = r.meta<LogProbCharLmMeta>(prefix);
    if (!validMeta(m) || !Number.isFinite(m.meanLogProb)) throw new ArtifactFormatError(`character LM "${prefix}" is corrupt`);
    const names = ['Keys', 'LogP', 'Ctx', 'Bow'].map((n) => `${prefix}${n}`);
    // with the keys' block offsets and first keys (`sortedKeyBlocks`): a search decodes only the blocks it enters
    const stored = r.extract(names.flatMap((n, x) => (x % 2 ? [n] : [n, `${n}At`, `${n}Head`])));
    if (names.some((n) => !stored.has(n)) || stored.count(names[0]) !== stored.count(names[1]) || stored.count(names[2]) !== stored.count(names[3]))
      throw new ArtifactFormatError(`character LM "${prefix}" is corrupt`);
    const tables = (): CharLmTables => ({
      keys: SortedKeys.read(stored, names[0], KEY_BLOCK),
      logp: stored.float32(names[1]),
      ctxKeys: SortedKeys.read(stored, names[2], KEY_BLOCK),
      bow: stored.float32(names[3]),
      bow0: m.bow0,
    });
    return new CharLm(m.order, m.alphabet, { tables }, [m.meanLogProb]);
  }
}

function validMeta(m: { order: number; alphabet: string } | undefined): boolean {
  return !!m && m.order >= 1 && m.order <= CHAR_LM_MAX_ORDER && typeof m.alphabet === 'string';
}

/** The bits of a context's last k characters (k ≤ 3: a context is at most 4, read whole). */
function lastChars(k: number): number {
  return (1 << (CHAR_BITS * k)) - 1;
}

/** The ids of an alphabet's characters (commonest first: FIRST_CHAR, FIRST_CHAR + 1, …). */
function alphabetIds(alphabet: string): Map<string, number> {
  return new Map(Array.from(alphabet, (c, x) => [c, FIRST_CHAR + x]));
}

/** A character's id: SPACE for the space between tokens, OTHER_CHAR for one outside the alphabet. */
function charIdOf(ids: ReadonlyMap<string, number>, c: string): number {
  return c === ' ' ? SPACE : (ids.get(c) ?? OTHER_CHAR);
}

/**
 * The n-grams of orders 1..order of `seqs` (sentences of character ids, each opened and closed by BOUNDARY) with their
 * counts, ascending (each order's keys ascend, and every key of order n is above those of order n − 1: its oldest
 * character's id is at least 1, so it is at least 256^(n−1)); the top order's n-grams seen TOP_ORDER_LEFT_OUT times or
 * fewer left out.
 */
function countedGrams(seqs: readonly Uint8Array[], order: number): CharLmCounts {
  const keys: number[] = [];
  const counts: number[] = [];
  for (let n = 1; n <= order; n++) {
    const c = countGrams(seqs, n);
    for (let x = 0; x < c.grams.length; x++) {
      if (n === order && c.counts[x] <= TOP_ORDER_LEFT_OUT) continue;
      keys.push(c.grams[x]);
      counts.push(c.counts[x]);
    }
  }
  return { keys: Float64Array.from(keys), counts: Int32Array.from(counts) };
}

/**
 * The model's tables from its counts: interpolated Witten-Bell estimates, P(c | h) = (N(h c) + T(h) P(c | h')) /
 * (N(h) + T(h)), h' the context without its oldest character, N(h) the context's continuations, T(h) their distinct
 * characters; back-off weight T(h) / (N(h) + T(h)). Every occurrence of an n-gram not ending a sentence is followed by
 * a character (each sentence ends with BOUNDARY), so N(h) is the count of h itself (of the start BOUNDARY too: one
 * start and one end per sentence); at the top order T(h) adds the continuations left out, N(h) less the stored ones'
 * counts (each was seen once).
 */
function tablesOf(c: CharLmCounts, order: number, uniform: number): CharLmTables {
  const { keys, counts } = c;
  const probs = new Float64Array(keys.length);
  const logp = new Float32Array(keys.length);
  // contexts are n-grams below the top order: at most that many
  const ctxKeys = new Float64Array(keys.length);
  const bow = new Float32Array(keys.length);
  let contexts = 0;
  // per n-gram: where its suffix (without its oldest character) is, and, as a context, where its continuations start
  const suffix = new Int32Array(keys.length);
  const firstNext = new Int32Array(keys.length);
  // where each order's keys start: order n's are at least 256^(n−1)
  const start = new Int32Array(order + 2);
  for (let n = 1, x = 0; n <= order + 1; n++) {
    while (x < keys.length && keys[x] < CHAR_BASE ** (n - 1)) x++;
    start[n] = x;
  }
  let unigrams = 0;
  const unigramAt = new Int32Array(CHAR_BASE).fill(-1);
  for (let x = start[1]; x < start[2]; x++) {
    unigrams += counts[x];
    unigramAt[keys[x]] = x;
  }
  const types0 = start[2] - start[1];
  for (let x = start[1]; x < start[2]; x++) {
    probs[x] = (counts[x] + types0 * uniform) / (unigrams + types0);
    logp[x] = Math.log(probs[x]);
  }
  const bow0 = types0 ? Math.log(types0 / (unigrams + types0)) : 0;
  for (let n = 2; n <= order; n++) {
    let x = start[n];
    // each context (an n − 1-gram that does not end a sentence), in ascending order as its continuations are
    for (let h = start[n - 1]; h < start[n]; h++) {
      const hk = keys[h];
      // (the last character as the key less its higher digits: a modulo of a double calls out of the compiled code)
      if (n > 2 && hk - Math.floor(hk / CHAR_BASE) * CHAR_BASE === BOUNDARY) continue;
      const from = x;
      firstNext[h] = from;
      let stored = 0;
      while (x < start[n + 1] && Math.floor(keys[x] / CHAR_BASE) === hk) stored += counts[x++];
      const total = counts[h];
      if (stored > total) throw new ArtifactFormatError('character LM counts are corrupt');
      const types = x - from + (n === order ? total - stored : 0);
      if (types === 0) continue;
      // the suffixes of h's continuations are the continuations of h's suffix (all stored: only the top order leaves
      // n-grams out), in the same order
      let low = n === 2 ? -1 : firstNext[suffix[h]];
      for (let y = from; y < x; y++) {
        const ch = keys[y] - hk * CHAR_BASE;
        if (n === 2) low = unigramAt[ch];
        else while (low < start[n] && keys[low] - Math.floor(keys[low] / CHAR_BASE) * CHAR_BASE !== ch) low++;
        if (low < 0 || low >= start[n]) throw new ArtifactFormatError('character LM counts are corrupt');
        suffix[y] = low;
        probs[y] = (counts[y] + types * probs[low]) / (total + types);
        logp[y] = Math.log(probs[y]);
      }
      ctxKeys[contexts] = hk;
      bow[contexts++] = Math.log(types / (total + types));
    }
    // every n-gram continues a context
    if (x !== start[n + 1]) throw new ArtifactFormatError('character LM counts are corrupt');
  }
  return { keys: SortedKeys.whole(keys), logp, ctxKeys: SortedKeys.whole(ctxKeys.slice(0, contexts)), bow: bow.slice(0, contexts), bow0 };
}

/** Whether a span is the sentence's first (after START): its first word is written without the space before it. */
function opensSentence(ctx: number, span: CharSpan): boolean {
  return ctx === BOUNDARY && span.ids[0] === SPACE;
}

/** A sentence's text as the decoder writes it, in lower case: tokens joined by spaces, a suffix piece joined to the
 *  token before it. */
function textOf(toks: readonly string[]): string {
  let s = '';
  for (const t of toks) {
    if (t.startsWith(PIECE_MARK)) s += t.slice(PIECE_MARK.length);
    else s += (s ? ' ' : '') + t;
  }
  return s.toLowerCase();
}

/** Slots of the first table `countGrams` counts in (it doubles when half full). */
const COUNT_START_SLOTS = 1 << 12;
/** 2^32: a key's high digits above the 32 bits `countGrams` hashes first. */
const TWO_32 = 2 ** 32;

/**
 * The distinct n-grams of order n in `seqs` (each character from the second on, with the n − 1 before it where the
 * sentence has them), ascending, with their counts: counted in an open-addressing table (sorting every occurrence
 * took five times as long on gn's 3.8 M characters), then only the distinct keys sorted.
 */
function countGrams(seqs: readonly Uint8Array[], n: number): { grams: Float64Array; counts: Int32Array } {
  let slots = COUNT_START_SLOTS;
  let keys = new Float64Array(slots);
  let counts = new Int32Array(slots);
  let used = 0;
  const slotOf = (k: number, table: Float64Array, mask: number): number => {
    let x = Math.imul(((k % TWO_32) | 0) ^ Math.imul(Math.floor(k / TWO_32), HASH_CHAR), HASH_MIX) & mask;
    // keys are ≥ 1 (character ids are), so 0 marks an empty slot
    while (table[x] !== 0 && table[x] !== k) x = (x + 1) & mask;
    return x;
  };
  for (const s of seqs) {
    for (let i = Math.max(1, n - 1); i < s.length; i++) {
      let k = 0;
      for (let j = i - n + 1; j <= i; j++) k = k * CHAR_BASE + s[j];
      let x = slotOf(k, keys, slots - 1);
      if (keys[x] === 0) {
        if (2 * (used + 1) > slots) {
          // twice the slots, every key moved over
          const [oldKeys, oldCounts] = [keys, counts];
          slots *= 2;
          keys = new Float64Array(slots);
          counts = new Int32Array(slots);
          for (let y = 0; y < oldKeys.length; y++) {
            if (oldKeys[y] === 0) continue;
            const z = slotOf(oldKeys[y], keys, slots - 1);
            keys[z] = oldKeys[y];
            counts[z] = oldCounts[y];
          }
          x = slotOf(k, keys, slots - 1);
        }
        keys[x] = k;
        used++;
      }
      counts[x]++;
    }
  }
  const grams = new Float64Array(used);
  for (let y = 0, z = 0; y < slots; y++) if (keys[y] !== 0) grams[z++] = keys[y];
  grams.sort();
  const table = keys;
  const mask = slots - 1;
  return { grams, counts: Int32Array.from(grams, (k) => counts[slotOf(k, table, mask)]) };
}
