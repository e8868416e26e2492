import { gramTermCounts, type WordGrams, wordGrams } from './gram-terms';
import { charGrams } from './hybrid-index';

/** The keys as the index counts its n-gram terms: FNV-1a of each n-gram string (hybrid-index hash32 / countTerms). */
function reference(words: string[], salt: number): [number, number][] {
  const m = new Map<number, number>();
  for (const g of charGrams(words)) {
    let h = (0x811c9dc5 ^ salt) >>> 0;
    for (let i = 0; i < g.length; i++) {
      h ^= g.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    const k = h & 0x7fffffff;
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return [...m];
}

describe('gramTermCounts', () => {
  it.each([[['a']], [['ab', 'abc', 'abcd']], [['ñandéva', 'mba’e', 'ñandéva']], [['𝒜x', 'ǵ', 'ha']], [[]], [['aaaa', 'aaaaaaa']]])(
    'counts the same keys in the same order as hashing charGrams(%j)',
    (words) => {
      for (const salt of [0x7654321, 0x1234567, 0]) expect([...gramTermCounts(words, salt)]).toEqual(reference(words, salt));
    },
  );
});

describe('wordGrams', () => {
  /** per gram key (ascending): its words (ascending) with the times it is in each, from counting each word's grams */
  function expected(words: string[], salt: number): [number, [number, number][]][] {
    const byGram = new Map<number, [number, number][]>();
    words.forEach((w, i) => {
      for (const [g, m] of gramTermCounts([w], salt)) {
        const list = byGram.get(g) ?? [];
        list.push([i, m]);
        byGram.set(g, list);
      }
    });
    return [...byGram].sort((a, b) => a[0] - b[0]);
  }

  /** What wordGrams lists, in the shape of `expected`. */
  function listed(g: WordGrams): [number, [number, number][]][] {
    return Array.from(g.keys, (key, k) => [
      key,
      Array.from({ length: g.gStart[k + 1] - g.gStart[k] }, (_, x): [number, number] => [g.gWord[g.gStart[k] + x], g.gMult[g.gStart[k] + x]]),
    ]);
  }

  it.each([[['a']], [['ab', 'abc', 'abcd', 'bcd']], [['ñandéva', 'mba’e', 'va']], [['aaaa', 'aaaaaaa', 'baaa']], [[]], [['𝒜x', 'ǵ', 'ha']]])(
    'lists the words of each gram of %j, with their multiplicities, as counting the words one by one does',
    (words) => {
      const g = wordGrams(words, 0x7654321);
      expect(listed(g)).toEqual(expected(words, 0x7654321));
      expect(g.gStart.length).toBe(g.keys.length + 1);
    },
  );

  it('lists the grams of a large vocabulary (keys over every radix bucket), multiplicities above a byte too', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
    words.push('z'.repeat(300));
    const g = wordGrams(words, 0x7654321);
    expect(g.gMult).toBeInstanceOf(Int32Array);
    expect(listed(g)).toEqual(expected(words, 0x7654321));
  });
});
