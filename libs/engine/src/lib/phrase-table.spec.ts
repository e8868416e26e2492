import { FrontCodedKeys, learnPhraseTables, type PackedPhraseTable, PHRASE_SCORE, PHRASE_SCORES_PER_OPTION, PhraseKeyIndex } from './phrase-table';
import { MAX_PHRASE, PHRASE_DISCOUNTED_TABLES, PHRASE_SINGLETON_MAX_WORDS } from './tuning';
import { type SideVocab, WordIndex } from './vocabulary';

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

  /** Keys front-coded as the model artifact stores them: lengths, words shared with the key before, the other ids. */
  const frontCode = (list: string[]): { len: Uint8Array; shared: Uint8Array; fresh: Uint16Array } => {
    const len = new Uint8Array(list.length);
    const shared = new Uint8Array(list.length);
    const fresh: number[] = [];
    let prev: number[] = [];
    list.forEach((k, i) => {
      const ids = k.split(' ').map((w) => words.indexOf(w));
      let s = 0;
      while (s < ids.length && s < prev.length && ids[s] === prev[s]) s++;
      len[i] = ids.length;
      shared[i] = s;
      fresh.push(...ids.slice(s));
      prev = ids;
    });
    return { len, shared, fresh: Uint16Array.from(fresh) };
  };

  it('reads front-coded keys (FrontCodedKeys) as a Map of the texts, without writing them out at load', () => {
    const many: string[] = [];
    for (const a of words.slice(3)) for (const b of words.slice(3)) many.push(`de ${a} ${b}`, `${a} ${b}`, `de ${a}`, a, `${a} ${b} de ${a}`);
    for (const list of [keys, many]) {
      const { len, shared, fresh } = frontCode(list);
      const coded = new FrontCodedKeys(vocab, len, shared, fresh);
      const plain = new Map<string, number>();
      list.forEach((k, i) => plain.has(k) || plain.set(k, i));
      for (const k of [...list, 'la perro', 'de de', 'el', 'gato', 'de de de de', 'come de la casa de']) expect(coded.get(k)).toBe(plain.get(k));
      expect(coded.texts()).toEqual(list);
      expect(coded.singleWordKeys()).toEqual(list.filter((k, i) => !k.includes(' ') && list.indexOf(k) === i));
      expect(coded.size).toBe(list.length);
    }
    const { len, shared, fresh } = frontCode(keys);
    shared[1] = 3;
    expect(() => new FrontCodedKeys(vocab, len, shared, fresh)).toThrow(/shares more words/);
    expect(() => new FrontCodedKeys(vocab, len, new Uint8Array(len.length), fresh)).toThrow(/corrupt/);
    expect(() => new FrontCodedKeys(vocab, len.slice(0, 1), shared.slice(0, 1), Uint16Array.of(words.length, 3))).toThrow(/not in the vocabulary/);
  });
});

describe('learnPhraseTables', () => {
  const vocab = (words: string[]): SideVocab => ({ words, cased: words.map(() => ''), index: new WordIndex(words), freq: new Float32Array(words.length) });
  const vs = vocab(['<unk>', '<s>', '</s>', 'a', 'b', 'c', 'd']);
  const vt = vocab(['<unk>', '<s>', '</s>', 'w', 'x', 'y', 'z']);
  /** word i of the sentence linked to word i of its translation */
  const diagonal = (n: number): Int32Array => Int32Array.from({ length: 2 * n }, (_, k) => k >> 1);
  /** The options of `key` in table `dir` of `tables` (0: into vt's words, 1: into vs's): output words and φ(out|in). */
  const optionsOf = (tables: PackedPhraseTable[], dir: 0 | 1, key: string): { words: string; phi: number }[] => {
    const t = tables[dir];
    const k = t.keyIndex.get(key);
    if (k === undefined) return [];
    const out: { words: string; phi: number }[] = [];
    for (let o = t.off[k]; o < t.off[k + 1]; o++)
      out.push({
        words: Array.from(t.tgtIds.subarray(t.tgtOff[o], t.tgtOff[o + 1]), (id) => (dir === 0 ? vt : vs).words[id]).join(' '),
        phi: Math.exp(t.scores[o * PHRASE_SCORES_PER_OPTION + PHRASE_SCORE.phiF]),
      });
    return out;
  };

  it('keeps a phrase pair seen once only when neither side is longer than PHRASE_SINGLETON_MAX_WORDS words', () => {
    // "a b c d" = "w x y z" once; "a b" = "w x" twice more
    const aS = [Int32Array.of(3, 4, 5, 6), Int32Array.of(3, 4), Int32Array.of(3, 4)];
    const aT = [Int32Array.of(3, 4, 5, 6), Int32Array.of(3, 4), Int32Array.of(3, 4)];
    const { tables } = learnPhraseTables(
      aS,
      aT,
      [diagonal(4), diagonal(2), diagonal(2)],
      vs,
      vt,
      () => 0.5,
      () => undefined,
    );
    const [fwd, rev] = tables;
    const outputs = (dir: 0 | 1, key: string): string[] => optionsOf(tables, dir, key).map((o) => o.words);
    expect(PHRASE_SINGLETON_MAX_WORDS).toBeLessThan(MAX_PHRASE);
    expect(outputs(0, 'a b c')).toContain('w x y');
    expect(outputs(0, 'a b')).toEqual(['w x']);
    expect(outputs(1, 'x y z')).toContain('b c d');
    // the four-word phrases were seen once: not keys of either table
    expect(fwd.keyIndex.has('a b c d')).toBe(false);
    expect(rev.keyIndex.has('w x y z')).toBe(false);
    expect(outputs(0, 'b c d')).toEqual(['x y z']);
  });

  it('discounts φ in the table into the target language: a pair seen once is no longer certain', () => {
    // one-word sentences: a = w three times, a = x once, b = y once, c = z twice (counts of counts: n1 2, n2 1, D 0.5)
    const rows: [number, number][] = [
      [3, 3],
      [3, 3],
      [3, 3],
      [3, 4],
      [4, 5],
      [5, 6],
      [5, 6],
    ];
    const { tables } = learnPhraseTables(
      rows.map(([s]) => Int32Array.of(s)),
      rows.map(([, t]) => Int32Array.of(t)),
      rows.map(() => diagonal(1)),
      vs,
      vt,
      () => 0.5,
      () => undefined,
    );
    /** φ(out|in) of a key's options, output words → probability */
    const phi = (dir: 0 | 1, key: string): Record<string, number> => Object.fromEntries(optionsOf(tables, dir, key).map((o) => [o.words, o.phi]));
    expect(PHRASE_DISCOUNTED_TABLES).toEqual([true, false]);
    // (c(b,y) − D) / c(b)
    expect(phi(0, 'b').y).toBeCloseTo(0.5, 5);
    // a's frequent translation still ranks first: (3 − 0.5) / 4 against (1 − 0.5) / 4
    expect(phi(0, 'a').w).toBeCloseTo(0.625, 5);
    expect(phi(0, 'a').x).toBeCloseTo(0.125, 5);
    // the table into the source language keeps relative frequencies
    expect(phi(1, 'y').b).toBeCloseTo(1, 5);
    expect(phi(1, 'w').a).toBeCloseTo(1, 5);
  });
});
