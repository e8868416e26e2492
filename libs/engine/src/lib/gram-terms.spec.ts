import { gramTermCounts } from './gram-terms';
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
