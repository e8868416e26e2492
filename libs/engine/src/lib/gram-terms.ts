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
