/** '#': the mark around a word whose character n-grams are indexed (`#word#`). */
const WORD_MARK = 35;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The character n-gram terms of a query (n = 3..4 over each `#word#`) counted by their 31-bit keys, in the order first
 * seen: the same Map as counting the keys (FNV-1a seeded with FNV_OFFSET ^ salt, over UTF-16 units, & 0x7fffffff) of
 * charGrams(words) one by one, without building the n-gram strings.
 */
export function gramTermCounts(words: readonly string[], salt: number): Map<number, number> {
  const m = new Map<number, number>();
  const seed = (FNV_OFFSET ^ salt) >>> 0;
  for (const w of words) {
    const len = w.length + 2;
    for (let n = 3; n <= 4; n++)
      for (let i = 0; i + n <= len; i++) {
        let h = seed;
        for (let j = i; j < i + n; j++) {
          h ^= j === 0 || j === len - 1 ? WORD_MARK : w.charCodeAt(j - 1);
          h = Math.imul(h, FNV_PRIME) >>> 0;
        }
        const key = h & 0x7fffffff;
        m.set(key, (m.get(key) ?? 0) + 1);
      }
  }
  return m;
}

/** Per gram of a vocabulary: the words it is in (word i: the i-th word given), as the gram side of an index holds them. */
export interface WordGrams {
  /** the distinct gram keys, ascending */
  keys: Int32Array;
  /** the words of gram k are gWord[gStart[k]]..gWord[gStart[k + 1] - 1], ascending, gMult the times it is in each */
  gStart: Int32Array;
  gWord: Int32Array;
  /** one byte each unless a word holds a gram more than 255 times */
  gMult: Uint8Array | Int32Array;
}

/** Bits of a gram key sorted per pass (two passes: keys are 31-bit). */
const RADIX_BITS = 16;
const RADIX_MASK = (1 << RADIX_BITS) - 1;
const BYTE_MAX = 255;

/**
 * The grams of every word (the keys gramTermCounts gives) grouped by gram: what an index written with its words
 * instead of its gram lists (index schema 9) derives when a side is first searched. Linear in the grams of the words:
 * each word's grams hashed once, then sorted by key with two stable counting passes (a word's entries stay in word
 * order), then one scan.
 */
export function wordGrams(words: readonly string[], salt: number): WordGrams {
  let total = 0;
  for (const w of words) total += Math.max(0, 2 * w.length - 1);
  let gramOf = new Int32Array(total);
  let wordOf = new Int32Array(total);
  const seed = (FNV_OFFSET ^ salt) >>> 0;
  // `#word#` as UTF-16 units; each 4-gram's hash continues its 3-gram's by one unit
  let units = new Uint16Array(64);
  let at = 0;
  for (let id = 0; id < words.length; id++) {
    const w = words[id];
    const len = w.length + 2;
    if (len > units.length) units = new Uint16Array(2 * len);
    units[0] = WORD_MARK;
    for (let j = 0; j < w.length; j++) units[j + 1] = w.charCodeAt(j);
    units[len - 1] = WORD_MARK;
    for (let i = 0; i + 3 <= len; i++) {
      let h = Math.imul(seed ^ units[i], FNV_PRIME);
      h = Math.imul(h ^ units[i + 1], FNV_PRIME);
      h = Math.imul(h ^ units[i + 2], FNV_PRIME);
      gramOf[at] = h & 0x7fffffff;
      wordOf[at++] = id;
      if (i + 4 <= len) {
        gramOf[at] = Math.imul(h ^ units[i + 3], FNV_PRIME) & 0x7fffffff;
        wordOf[at++] = id;
      }
    }
  }
  // stable counting sorts by the low, then the high bits of the keys
  let gramTo = new Int32Array(total);
  let wordTo = new Int32Array(total);
  const start = new Int32Array(RADIX_MASK + 2);
  for (let shift = 0; shift < 32; shift += RADIX_BITS) {
    start.fill(0);
    for (let x = 0; x < total; x++) start[((gramOf[x] >>> shift) & RADIX_MASK) + 1]++;
    for (let b = 1; b < start.length; b++) start[b] += start[b - 1];
    for (let x = 0; x < total; x++) {
      const to = start[(gramOf[x] >>> shift) & RADIX_MASK]++;
      gramTo[to] = gramOf[x];
      wordTo[to] = wordOf[x];
    }
    [gramOf, gramTo] = [gramTo, gramOf];
    [wordOf, wordTo] = [wordTo, wordOf];
  }
  // one entry per gram and word, with the times the word holds the gram
  let grams = 0;
  for (let x = 0; x < total; x++) if (x === 0 || gramOf[x] !== gramOf[x - 1]) grams++;
  const keys = new Int32Array(grams);
  const gStart = new Int32Array(grams + 1);
  const gWord = new Int32Array(total);
  const mult = new Int32Array(total);
  let k = -1;
  let n = 0;
  let wide = false;
  for (let x = 0; x < total; x++) {
    if (x === 0 || gramOf[x] !== gramOf[x - 1]) {
      keys[++k] = gramOf[x];
      gStart[k] = n;
    } else if (wordOf[x] === wordOf[x - 1]) {
      wide = ++mult[n - 1] > BYTE_MAX || wide;
      continue;
    }
    gWord[n] = wordOf[x];
    mult[n++] = 1;
  }
  gStart[grams] = n;
  return { keys, gStart, gWord: gWord.slice(0, n), gMult: wide ? mult.slice(0, n) : Uint8Array.from(mult.subarray(0, n)) };
}
