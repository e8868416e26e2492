import { PhraseKeyIndex } from './phrase-table';
import { WordIndex } from './vocabulary';

describe('PhraseKeyIndex (keys of a loaded phrase table)', () => {
  const words = ['<unk>', '<s>', '</s>', 'de', 'la', 'casa', 'el', 'perro', 'come'];
  const vocab = { words, cased: words.map(() => ''), index: new WordIndex(words), freq: new Float32Array(words.length) };
  // keys in the order a table learned them (single words among phrases, one first word shared by many phrases)
  const keys = ['la casa', 'casa', 'de la casa', 'de', 'el perro come', 'de la', 'perro', 'el perro', 'de casa', 'la', 'come de la casa'];
  const start = new Int32Array(keys.length + 1);
  const ids: number[] = [];
  keys.forEach((k, i) => {
    for (const w of k.split(' ')) ids.push(words.indexOf(w));
    start[i + 1] = ids.length;
  });
  const index = new PhraseKeyIndex(vocab, start, Int32Array.from(ids));
  const map = new Map(keys.map((k, i) => [k, i]));

  it('finds every key as a Map of the texts does, and nothing else', () => {
    const others = ['la perro', 'de de', 'casa de', 'el', 'gato', 'de gato', 'come de la casa de', 'la casa de', ''];
    for (const k of [...keys, ...others]) {
      expect(index.get(k)).toBe(map.get(k));
      expect(index.has(k)).toBe(map.has(k));
    }
    expect(index.size).toBe(keys.length);
  });

  it('finds the keys of a first word with more phrases than a small hash holds, learned between other keys', () => {
    const many: string[] = [];
    for (const a of words.slice(3)) for (const b of words.slice(3)) many.push(`de ${a} ${b}`, `${a} ${b}`);
    const at = new Int32Array(many.length + 1);
    const manyIds: number[] = [];
    many.forEach((k, i) => {
      for (const w of k.split(' ')) manyIds.push(words.indexOf(w));
      at[i + 1] = manyIds.length;
    });
    const big = new PhraseKeyIndex(vocab, at, Uint16Array.from(manyIds));
    many.forEach((k, i) => expect(big.get(k)).toBe(i));
    expect(big.get('de de de de')).toBeUndefined();
  });

  it('lists the single-word keys in key order', () => {
    expect(index.singleWordKeys()).toEqual(keys.filter((k) => !k.includes(' ')));
  });

  it('writes every key out in key order', () => {
    expect(index.texts()).toEqual(keys);
  });
});
