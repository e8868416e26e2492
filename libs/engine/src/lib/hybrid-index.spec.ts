import { ArtifactReader } from './artifact-codec';
import { HybridIndex, INDEX_SCHEMA } from './hybrid-index';
import { toyCorpus } from '../testing/toy-corpus';

const PAIRS = [
  { id: 'a', source: 'El perro duerme en la casa.', target: 'Anu utapi ikiri.' },
  { id: 'b', source: 'La mujer trabaja en el campo.', target: 'Warmi yapupi irnaqi.' },
  { id: 'c', source: 'Los niños cantan en la escuela.', target: "Wawanaka yatiqañapi q'uchupxi." },
  { id: 'd', source: 'El maestro come pan.', target: "Yatichiri t'ant'a manq'i." },
];

describe('HybridIndex', () => {
  it('ranks the pair sharing the rare word first and reports matched terms', () => {
    const ix = new HybridIndex();
    ix.add(PAIRS);
    const hits = ix.search('¿Dónde trabaja la mujer?', 3);
    expect(hits[0].id).toBe('b');
    expect(hits[0].matchedTerms).toEqual(expect.arrayContaining(['trabaja', 'mujer']));
    expect(hits[0].score).toBeGreaterThan(hits[hits.length - 1].score);
  });

  it('matches agglutinated forms through character n-grams (shared stem, no shared word)', () => {
    const ix = new HybridIndex();
    ix.add(PAIRS);
    // "yatiqañapxi" shares the stem of "yatiqañapi" but no whole word with any target
    const hits = ix.search('yatiqañapxi', 2, { side: 'target' });
    expect(hits[0].id).toBe('c');
    expect(hits[0].matchedTerms).toEqual([]);
  });

  it('searches the target side for the reverse direction', () => {
    const ix = new HybridIndex();
    ix.add(PAIRS);
    expect(ix.search('warmi irnaqi', 1, { side: 'target' })[0].id).toBe('b');
    expect(ix.search('warmi irnaqi', 1, { side: 'source' })).toEqual([]);
  });

  it('is diacritic- and case-insensitive when matching', () => {
    const ix = new HybridIndex();
    ix.add(PAIRS);
    expect(ix.search('NINOS', 1)[0].id).toBe('c');
  });

  it('adds and removes pairs incrementally', () => {
    const ix = new HybridIndex();
    ix.add(PAIRS);
    expect(ix.size).toBe(4);
    ix.remove(['b']);
    expect(ix.size).toBe(3);
    expect(ix.search('mujer trabaja campo', 4).map((h) => h.id)).not.toContain('b');
    ix.add([{ id: 'e', source: 'La mujer canta.', target: "Warmi q'uchu." }]);
    expect(ix.search('mujer', 1)[0].id).toBe('e');
    // re-adding an existing id replaces it
    ix.add([{ id: 'e', source: 'El gato duerme.', target: 'Misi ikiri.' }]);
    expect(ix.size).toBe(4);
    expect(ix.search('gato', 1)[0].id).toBe('e');
  });

  it('round-trips through serialize / deserialize with identical results, and keeps accepting pairs', () => {
    const ix = new HybridIndex();
    ix.add(toyCorpus());
    ix.remove(['toy-3']);
    const before = ix.search('el gato canta en el río', 5);
    const copy = HybridIndex.deserialize(ix.serialize());
    expect(copy.size).toBe(ix.size);
    const after = copy.search('el gato canta en el río', 5);
    expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
    after.forEach((h, i) => expect(h.score).toBeCloseTo(before[i].score, 10));
    copy.add([{ id: 'new', source: 'Un zorro rojo.', target: 'Qamaqi.' }]);
    expect(copy.search('zorro', 1)[0].id).toBe('new');
    expect(() => HybridIndex.deserialize(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0]))).toThrow();
  });

  it('scores character n-grams derived from the words exactly like document postings, on both sides and after changes', () => {
    const ix = new HybridIndex();
    ix.add(toyCorpus());
    const copy = HybridIndex.deserialize(ix.serialize());
    for (const [q, side] of [
      ['los gatitos cantaban', 'source'],
      ["misi q'uchu yapu", 'target'],
      ['perrito', 'source'],
    ] as const) {
      const before = ix.search(q, 8, { side });
      const after = copy.search(q, 8, { side });
      expect(after.map((h) => [h.id, h.source, h.target, h.matchedTerms])).toEqual(before.map((h) => [h.id, h.source, h.target, h.matchedTerms]));
      after.forEach((h, i) => expect(h.score).toBeCloseTo(before[i].score, 10));
    }
    // changed after loading, then written again: the same as an index built with the same changes
    for (const x of [ix, copy]) {
      x.remove(['toy-1']);
      x.add([{ id: 'toy-2', source: 'El gato negro canta.', target: 'Yana michi takin.' }]);
    }
    const again = HybridIndex.deserialize(copy.serialize());
    expect(again.search('gato negro', 5).map((h) => h.id)).toEqual(ix.search('gato negro', 5).map((h) => h.id));
    expect(again.get('toy-2')?.target).toBe('Yana michi takin.');
    expect(again.has('toy-1')).toBe(false);
  });
});

describe('HybridIndex artifact (schema 5)', () => {
  it('stores a repeated text and its vector once and answers like the index it was written from', () => {
    const pairs = toyCorpus();
    const repeated = [...pairs, ...pairs.slice(0, 20).map((p, i) => ({ ...p, id: `again-${i}` }))];
    const ix = new HybridIndex();
    ix.add(repeated);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect(r.schema).toBe(INDEX_SCHEMA);
    expect(r.meta('srcTextBlocks')).toBe(1);
    expect(r.count('srcText0')).toBe(new Set(repeated.map((p) => p.source)).size);
    expect(r.count('srcOf')).toBe(repeated.length);
    expect(r.count('vec0Scale')).toBeLessThan(repeated.length);
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of [
      ['el perro come', 'source'],
      ["anu manq'i", 'target'],
    ] as const) {
      const before = ix.search(q, 10, { side });
      const after = copy.search(q, 10, { side });
      expect(after.map((h) => [h.id, h.source, h.target])).toEqual(before.map((h) => [h.id, h.source, h.target]));
      after.forEach((h, i) => expect(h.score).toBeCloseTo(before[i].score, 10));
    }
    expect(copy.get('again-3')).toEqual({ ...repeated[3], id: 'again-3' });
  });

  it('reads the texts of a hit from their stored block (several blocks)', () => {
    const pairs = Array.from({ length: 1300 }, (_, i) => ({
      id: `p${i}`,
      source: `La frase número ${i} habla del río ${i % 7}.`,
      target: `Jawira ${i} ñe'ẽ ${i % 5}.`,
    }));
    const ix = new HybridIndex();
    ix.add(pairs);
    const bytes = ix.serialize();
    expect(ArtifactReader.open(bytes, 'INDX').meta('srcTextBlocks')).toBe(3);
    const copy = HybridIndex.deserialize(bytes);
    for (const i of [0, 511, 512, 1023, 1024, 1299]) expect(copy.get(`p${i}`)).toEqual(pairs[i]);
    expect(copy.search('frase número 600', 3).map((h) => [h.id, h.source, h.target])).toEqual(
      ix.search('frase número 600', 3).map((h) => [h.id, h.source, h.target]),
    );
    expect(copy.pairs()).toEqual(pairs);
  });
});

describe('HybridIndex.embedText', () => {
  it('gives normalised vectors of the index dimension that put related texts closer than unrelated ones', () => {
    const idx = new HybridIndex();
    const pairs = [] as { id: string; source: string; target: string }[];
    for (let i = 0; i < 60; i++) {
      pairs.push({ id: `a${i}`, source: `el perro bebe agua ${i % 3 ? 'fría' : 'limpia'}`, target: `allqu yakuta upyan ${i}` });
      pairs.push({ id: `b${i}`, source: `la montaña tiene nieve ${i % 2 ? 'blanca' : 'antigua'}`, target: `urqu riti ${i}` });
    }
    idx.add(pairs);
    const v = idx.embedText('el perro bebe agua');
    expect(v).toHaveLength(HybridIndex.dimension);
    expect(Math.sqrt(v.reduce((s, x) => s + x * x, 0))).toBeCloseTo(1, 3);
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
    expect(dot(v, idx.embedText('perro agua'))).toBeGreaterThan(dot(v, idx.embedText('montaña nieve')));
  });
});
