import { WordIndex } from './vocabulary';

describe('WordIndex (word ids of a loaded vocabulary)', () => {
  const words = ['<unk>', '<s>', '</s>', 'de', 'la', 'ñandú', 'mba’e', 'casa', 'cosa', '', 'a b'];

  it('finds every word as a Map filled in id order does', () => {
    const index = new WordIndex(words);
    const map = new Map(words.map((w, i) => [w, i]));
    for (const w of [...words, 'perro', 'De', 'ñandu', 'cas', 'casas', ' ']) {
      expect(index.get(w)).toBe(map.get(w));
      expect(index.has(w)).toBe(map.has(w));
    }
    expect(index.size).toBe(map.size);
  });

  it('gives a word listed twice its last id', () => {
    const index = new WordIndex(['<unk>', 'x', 'y', 'x']);
    expect(index.get('x')).toBe(3);
    expect(index.size).toBe(3);
  });

  it('keeps many words apart (probing past collisions)', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    const index = new WordIndex(many);
    many.forEach((w, i) => expect(index.get(w)).toBe(i));
    expect(index.get('w-1')).toBeUndefined();
  });
});
