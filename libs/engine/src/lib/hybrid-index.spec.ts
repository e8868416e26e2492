import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactFormatError, ArtifactReader } from './artifact-codec';
import { HybridIndex, INDEX_SCHEMA } from './hybrid-index';
import { toyCorpus } from '../testing/toy-corpus';

/** An index of the toy corpus (a pair removed, one added later) as the engine of index schema 5 wrote it. */
const SCHEMA5 = path.join(__dirname, '../testing/fixtures/toy-indx-schema5.bin');
/** The same as the engine of index schema 6 wrote it (16-bit document vectors without their largest code). */
const SCHEMA6 = path.join(__dirname, '../testing/fixtures/toy-indx-schema6.bin');
/** The same as the engine of index schema 8 wrote it (word keys and gram lists stored). */
const SCHEMA8 = path.join(__dirname, '../testing/fixtures/toy-indx-schema8.bin');
/** The same as the engine of index schema 9 wrote it (document vectors stored). */
const SCHEMA9 = path.join(__dirname, '../testing/fixtures/toy-indx-schema9.bin');

/** Queries of both sides of the toy corpus (words it has, words it lacks). */
const TOY_QUERIES = [
  ['el gato canta en el río', 'source'],
  ["misi q'uchu yapu", 'target'],
  ['El zorro rojo come pan.', 'source'],
  ["qamaqi manq'i jawira", 'target'],
] as const;

/** The context rows of an index by key (a loaded index's rows as its queries read them). */
function contextRows(ix: HybridIndex): Map<number, Float32Array> {
  ix.embedText('', 'source'); // a loaded index reads its context rows on first use
  const ctx = (ix as unknown as { ctx: { baseKeys: Int32Array; extra: Map<number, Float32Array>; get(k: number): Float32Array } }).ctx;
  const out = new Map<number, Float32Array>();
  for (const k of [...ctx.baseKeys, ...ctx.extra.keys()]) out.set(k, Float32Array.from(ctx.get(k)));
  return out;
}

/** A row as a stored 16-bit row reads back (scaled by its largest value). */
function requantized(v: Float32Array): Float32Array {
  let m = 0;
  for (const x of v) m = Math.max(m, Math.abs(x));
  const scale = Math.fround(m / 32767);
  return v.map((x) => (m > 0 ? (Math.round(x / scale) | 0) * scale : 0));
}

/**
 * Two pairs whose source words 'kxibub' and 'kthaef' hash to the same word key (found by search): a side with such
 * words stores its word keys instead of its words (schema 9), so the index stores its document vectors too (schema 10).
 */
const COLLIDING = [
  { id: 'x1', source: 'El kxibub come pan.', target: 'Kxibub manqi.' },
  { id: 'x2', source: 'La kthaef duerme.', target: 'Jupax ikiri.' },
];

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

describe('HybridIndex artifact (texts and document vectors, schema 5 on)', () => {
  it('stores a repeated text and its vector once and answers like the index it was written from', () => {
    const pairs = toyCorpus();
    const repeated = [...pairs, ...pairs.slice(0, 20).map((p, i) => ({ ...p, id: `again-${i}` })), ...COLLIDING];
    const ix = new HybridIndex();
    ix.add(repeated);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect(r.schema).toBe(INDEX_SCHEMA);
    expect(r.meta('srcTextBlocks')).toBe(1);
    expect(r.count('srcText0')).toBe(new Set(repeated.map((p) => p.source)).size);
    expect(r.count('srcOf')).toBe(repeated.length);
    // schema 7 (vectors stored: COLLIDING): a signed byte per component of each distinct row, no scale
    expect(r.count('vec0Q8') / 32).toBeLessThan(repeated.length);
    expect(r.count('vec0Q8') % 32).toBe(0);
    // each row's largest component is the largest code, ±31
    const codes = r.raw<Int8Array>('vec0Q8');
    for (let x = 0; x < codes.length; x += 32) expect(Math.max(...codes.subarray(x, x + 32).map(Math.abs))).toBe(31);
    expect(['vec0Q', 'vec0Q31', 'vec0Max', 'vec0ScaleFix', 'vec0Scale'].filter((x) => r.has(x))).toEqual([]);
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of [
      ['el perro come', 'source'],
      ["anu manq'i", 'target'],
      ['los niños cantan en el río', 'source'],
    ] as const) {
      // the index searched the values its codes give: the copy answers the same, score for score
      expect(copy.search(q, 10, { side })).toEqual(ix.search(q, 10, { side }));
    }
    expect(copy.get('again-3')).toEqual({ ...repeated[3], id: 'again-3' });
  });

  it('searches the stored distinct vector rows of a loaded index as they are, and writes them per document only when one is needed', () => {
    const pairs = toyCorpus();
    const ix = new HybridIndex();
    ix.add([...pairs, ...pairs.slice(0, 10).map((p, i) => ({ ...p, id: `again-${i}` }))]);
    const bytes = ix.serialize();
    const searched = HybridIndex.deserialize(bytes);
    const perDocument = (x: HybridIndex): number[] => (x as unknown as { vecs: Float32Array[] }).vecs.map((v) => v.length);
    for (const side of ['source', 'target'] as const)
      for (const q of ['el perro come', "anu manq'i", 'los gatitos cantaban'])
        expect(searched.search(q, 10, { side })).toEqual(HybridIndex.deserialize(bytes).search(q, 10, { side }));
    expect(perDocument(searched)).toEqual([0, 0]);
    // written out per document: serialized again as loaded, and documents added next to them answer alike
    expect(searched.serialize()).toEqual(HybridIndex.deserialize(bytes).serialize());
    const unsearched = HybridIndex.deserialize(bytes);
    for (const x of [searched, unsearched]) {
      x.remove(['toy-1']);
      x.add([{ id: 'zorro', source: 'Un zorro rojo come pan.', target: "Qamaqi manq'i." }]);
    }
    expect(perDocument(searched)[0]).toBeGreaterThan(0);
    for (const side of ['source', 'target'] as const)
      for (const q of ['un zorro come', "qamaqi manq'i"]) expect(searched.search(q, 10, { side })).toEqual(unsearched.search(q, 10, { side }));
    expect(searched.serialize()).toEqual(unsearched.serialize());
  });

  it('scores n-grams occurring more than 255 times in one word (multiplicities wider than a byte) as before loading', () => {
    const ix = new HybridIndex();
    ix.add([...PAIRS, { id: 'long', source: `el grito ${'a'.repeat(300)}h`, target: `qapari ${'u'.repeat(280)}` }]);
    const copy = HybridIndex.deserialize(ix.serialize());
    for (const [q, side] of [
      [`${'a'.repeat(20)}`, 'source'],
      [`${'u'.repeat(9)}`, 'target'],
    ] as const) {
      const before = ix.search(q, 5, { side });
      const after = copy.search(q, 5, { side });
      expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
      expect(after[0].id).toBe('long');
      after.forEach((h, i) => expect(h.score).toBeCloseTo(before[i].score, 10));
    }
  });

  it('stores the vector of a document without words (all codes zero) as codes too', () => {
    const ix = new HybridIndex();
    ix.add([...PAIRS, { id: 'marks', source: '¡¿…?!', target: '—' }, ...COLLIDING]);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect([...r.raw<Int8Array>('vec0Q8').subarray(r.int32('vec0Row')[4] * 32, r.int32('vec0Row')[4] * 32 + 32)]).toEqual(new Array(32).fill(0));
    const again = HybridIndex.deserialize(bytes);
    expect(again.search('la mujer trabaja', 5)).toEqual(HybridIndex.deserialize(bytes).search('la mujer trabaja', 5));
    expect(again.search('la mujer trabaja', 5)).toEqual(ix.search('la mujer trabaja', 5));
    expect(again.get('marks')).toEqual({ id: 'marks', source: '¡¿…?!', target: '—' });
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

describe('HybridIndex artifact (schema 6: context rows of rare words learned again from the texts)', () => {
  it('still reads a schema 5 index and answers, embeds and reads every context row as after re-encoding it', () => {
    const stored = new Uint8Array(fs.readFileSync(SCHEMA5));
    expect(ArtifactReader.open(stored, 'INDX').schema).toBe(5);
    const old = HybridIndex.deserialize(stored);
    // the 16-bit document vectors read are written as 16-bit codes again (answers as before)
    const bytes = old.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect(r.schema).toBe(INDEX_SCHEMA);
    // most rows are not stored: words found in few documents
    expect(r.count('ctxDerived')).toBeGreaterThan(0);
    expect(r.count('ctxScale')).toBe(r.count('ctxKeys') - r.count('ctxDerived'));
    const again = HybridIndex.deserialize(bytes);
    for (const [q, side] of [
      ['el gato canta en el río', 'source'],
      ["misi q'uchu yapu", 'target'],
      ['El zorro rojo corre.', 'source'],
    ] as const) {
      expect(again.search(q, 8, { side })).toEqual(old.search(q, 8, { side }));
      expect(again.embedText(q, side)).toEqual(old.embedText(q, side));
    }
    const a = contextRows(old);
    const b = contextRows(again);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [k, v] of a) expect(b.get(k)).toEqual(v);
  });

  it('loads an index whose context rows are all learned again (every word in one document)', () => {
    const ix = new HybridIndex();
    ix.add([
      { id: 'a', source: 'La mujer trabaja.', target: 'Warmi irnaqi.' },
      { id: 'b', source: 'Un perro duerme.', target: 'Anu ikiri.' },
      { id: 'c', source: '¿Dónde cantan?', target: "Kawkiq q'uchupxi?" },
    ]);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect([r.count('ctxDerived'), r.meta('ctxBlocks')]).toEqual([r.count('ctxKeys'), 0]);
    const again = HybridIndex.deserialize(bytes);
    const a = contextRows(ix);
    const b = contextRows(again);
    // schema 8: rows of integers learned again as they are
    for (const [k, v] of a) expect(b.get(k)).toEqual(v);
    expect(again.search('la mujer trabaja', 2).map((h) => h.id)).toEqual(ix.search('la mujer trabaja', 2).map((h) => h.id));
  });

  it('learns every row at once before a change (each document tokenized once) exactly as one by one', () => {
    const bytes = HybridIndex.deserialize(new Uint8Array(fs.readFileSync(SCHEMA5))).serialize();
    const oneByOne = contextRows(HybridIndex.deserialize(bytes));
    const changed = HybridIndex.deserialize(bytes);
    changed.embedText('', 'source');
    // a change decodes every row first (a key no word has: its row is new, the others stay)
    (changed as unknown as { ctx: { getOrCreate(k: number): Float32Array } }).ctx.getOrCreate(0x7fffffff);
    const all = contextRows(changed);
    expect(all.size).toBe(oneByOne.size + 1);
    for (const [k, v] of oneByOne) expect(all.get(k)).toEqual(v);
  });

  it('reads every context row of an index changed after loading as stored, and stores a row its texts do not give', () => {
    const changed = HybridIndex.deserialize(new Uint8Array(fs.readFileSync(SCHEMA5)));
    changed.add([{ id: 'fresh', source: 'El zorro come pan en la casa.', target: "Qamaqi t'ant'a manq'i utapi." }]);
    changed.remove(['toy-1']);
    let r = ArtifactReader.open(changed.serialize(), 'INDX');
    const keys = r.int32('ctxKeys');
    const learned = [...r.int32('ctxDerived')].map((b) => keys[b]);
    expect(learned.length).toBeGreaterThan(1);
    // a row that drifted from what its documents teach (as rows learned on dequantized rows may)
    const ctx = (changed as unknown as { ctx: { getOrCreate(k: number): Float32Array } }).ctx;
    ctx.getOrCreate(learned[0])[0] += 0.37;
    const bytes = changed.serialize();
    r = ArtifactReader.open(bytes, 'INDX');
    expect(r.count('ctxDerived')).toBe(learned.length - 1);
    const again = HybridIndex.deserialize(bytes);
    const a = contextRows(changed);
    const b = contextRows(again);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [k, v] of a) expect(b.get(k)).toEqual(requantized(v));
  });

  it('stores no id table when the ids follow a rule (position from a base, or the hash ingestion names pairs by)', () => {
    const pairs = toyCorpus().slice(0, 30);
    const hashed = pairs.map((p) => ({ ...p, id: createHash('sha256').update(p.source).update('\u0000').update(p.target).digest('base64url') }));
    for (const [list, rule] of [
      [pairs.map((p, i) => ({ ...p, id: `shp-${i + 7}` })), { kind: 'sequence', prefix: 'shp-', base: 7 }],
      [hashed, { kind: 'pairHash' }],
      [pairs.map((p, i) => ({ ...p, id: `x${i === 3 ? 'y' : ''}${i}` })), undefined],
    ] as const) {
      const ix = new HybridIndex();
      ix.add([...list]);
      const bytes = ix.serialize();
      const r = ArtifactReader.open(bytes, 'INDX');
      expect(r.meta('idRule')).toEqual(rule);
      expect(r.has('ids')).toBe(rule === undefined);
      const again = HybridIndex.deserialize(bytes);
      expect(again.search('el perro come', 5).map((h) => h.id)).toEqual(ix.search('el perro come', 5).map((h) => h.id));
      expect(again.pairs()).toEqual(list);
      expect(again.has(list[4].id)).toBe(true);
      expect(again.get(list[5].id)).toEqual(list[5]);
      again.remove([list[4].id]);
      again.add([{ id: list[5].id, source: 'Un zorro.', target: 'Qamaqi.' }]);
      expect(HybridIndex.deserialize(again.serialize()).pairs()).toEqual([
        ...list.filter((_, i) => i !== 4 && i !== 5),
        { id: list[5].id, source: 'Un zorro.', target: 'Qamaqi.' },
      ]);
    }
  });

  it('is refused by an engine that reads older schemas only', () => {
    const ix = new HybridIndex();
    ix.add(toyCorpus());
    const bytes = ix.serialize();
    expect(INDEX_SCHEMA).toBe(10);
    // the check of an engine reading schemas up to 9
    expect(ArtifactReader.open(bytes, 'INDX').schema).toBeGreaterThan(9);
    const newer = bytes.slice();
    new DataView(newer.buffer).setUint16(10, INDEX_SCHEMA + 1, true);
    expect(() => HybridIndex.deserialize(newer)).toThrow(ArtifactFormatError);
  });
});

describe('HybridIndex artifact (schema 7: document vectors as 8-bit codes)', () => {
  const queries = TOY_QUERIES;

  it('still reads a schema 6 index and answers as after re-encoding it (its 16-bit vectors kept until computed again)', () => {
    const stored = new Uint8Array(fs.readFileSync(SCHEMA6));
    expect(ArtifactReader.open(stored, 'INDX').schema).toBe(6);
    expect(ArtifactReader.open(stored, 'INDX').has('vec0Q31')).toBe(true);
    const old = HybridIndex.deserialize(stored);
    expect(old.pairs().map((p) => p.id)).toContain('later');
    // read twice, the 16-bit rows answer alike (nothing rewritten by a search)
    for (const [q, side] of queries) expect(old.search(q, 8, { side })).toEqual(HybridIndex.deserialize(stored).search(q, 8, { side }));
    const bytes = old.serialize();
    expect([ArtifactReader.open(bytes, 'INDX').has('vec1Q8'), ArtifactReader.open(bytes, 'INDX').has('vec1Q31')]).toEqual([false, true]);
    const again = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) {
      expect(again.search(q, 8, { side })).toEqual(old.search(q, 8, { side }));
      expect(again.embedText(q, side)).toEqual(old.embedText(q, side));
    }
    expect(again.serialize()).toEqual(bytes);
    // once every vector is computed again (pairs added a few at a time: the vectors are refreshed), they are codes
    const more = toyCorpus().map((p) => ({ ...p, id: `more-${p.id}` }));
    for (let i = 0; i < 60; i += 10) again.add(more.slice(i, i + 10));
    const recoded = again.serialize();
    expect([ArtifactReader.open(recoded, 'INDX').has('vec1Q8'), ArtifactReader.open(recoded, 'INDX').has('vec1Q31')]).toEqual([true, false]);
    const copy = HybridIndex.deserialize(recoded);
    for (const [q, side] of queries) expect(copy.search(q, 8, { side })).toEqual(again.search(q, 8, { side }));
  });

  it('answers after loading exactly as the index that wrote it, and after more pairs are added to both', () => {
    const pairs = toyCorpus();
    const ix = new HybridIndex();
    ix.add(pairs.slice(0, 40));
    ix.add(pairs.slice(40));
    const bytes = ix.serialize();
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) expect(copy.search(q, 10, { side })).toEqual(ix.search(q, 10, { side }));
    const more = [{ id: 'zorro', source: 'Un zorro rojo come pan.', target: "Qamaqi t'ant'a manq'i." }];
    ix.add(more);
    copy.add(more);
    for (const [q, side] of queries) expect(copy.search(q, 10, { side }).map((h) => h.id)).toEqual(ix.search(q, 10, { side }).map((h) => h.id));
    // written again unchanged: the stored codes are those of the values searched
    expect(HybridIndex.deserialize(bytes).serialize()).toEqual(bytes);
  });
});

describe('HybridIndex artifact (schema 8: context rows of integers stored exactly)', () => {
  it('reads every context row (stored or learned again) exactly as the index that wrote it has it', () => {
    const ix = new HybridIndex();
    ix.add([...toyCorpus(), ...PAIRS]);
    ix.remove(['d']);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect(r.schema).toBe(INDEX_SCHEMA);
    expect(r.meta('ctxIntegers')).toBe(true);
    expect([r.has('ctxScale'), r.has('ctxQ0'), r.has('ctxZ0')]).toEqual([false, false, true]);
    expect(r.count('ctxDerived')).toBeGreaterThan(0);
    expect(r.count('ctxZ0')).toBe((r.count('ctxKeys') - r.count('ctxDerived')) * 32);
    const again = HybridIndex.deserialize(bytes);
    const a = contextRows(ix);
    const b = contextRows(again);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [k, v] of a) {
      expect(b.get(k)).toEqual(v);
      expect(v.every((x) => Number.isInteger(x))).toBe(true);
    }
    for (const [q, side] of [
      ['el gato canta en el río', 'source'],
      ["misi q'uchu yapu", 'target'],
    ] as const) {
      expect(again.embedText(q, side)).toEqual(ix.embedText(q, side));
      expect(again.search(q, 8, { side })).toEqual(ix.search(q, 8, { side }));
    }
    expect(again.serialize()).toEqual(bytes);
  });

  it('stores rows that are not integers (an index read from an older artifact, then changed) as 16-bit codes', () => {
    const changed = HybridIndex.deserialize(new Uint8Array(fs.readFileSync(SCHEMA6)));
    changed.add([{ id: 'fresh', source: 'El zorro come pan.', target: "Qamaqi t'ant'a manq'i." }]);
    const r = ArtifactReader.open(changed.serialize(), 'INDX');
    expect(r.meta('ctxIntegers')).toBeUndefined();
    expect([r.has('ctxScale'), r.has('ctxQ0')]).toEqual([true, true]);
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

/** A posting field of an index as its search scores it (internal: its BM25 scoring pinned below). */
interface ScoredField {
  score(query: Map<number, number>, alive: Uint8Array | null, acc: Float64Array, touched: Int32Array, nt: number, maxDfFrac: number): number;
  packed: { keys: Int32Array } | null;
  grams: { keys: Int32Array } | null;
  segs: { keys: Int32Array }[];
}

function fieldsOf(ix: HybridIndex): { fields: ScoredField[]; alive: Uint8Array; n: number } {
  for (const side of ['source', 'target'] as const) ix.search('x', 1, { side }); // a loaded index decodes a side on its first search
  const inner = ix as unknown as { sides: { word: ScoredField; char: ScoredField }[]; alive: Uint8Array; ids: unknown[] };
  return { fields: inner.sides.flatMap((s) => [s.word, s.char]), alive: inner.alive, n: inner.ids.length };
}

describe('HybridIndex BM25 field scoring', () => {
  // made-up pairs: repeated texts (equal scores), shared stems, a removed pair whose postings stay behind
  const pairs = [
    'kuarahy osẽ ko ára',
    'kuarahy osẽ ko ára',
    'ko ára kuarahy oike',
    'jasy osẽ pyharépe',
    'kuarahy ha jasy',
    'kuarahy ha jasy',
    'ára porã ko ára',
    'mitã oñembosarái kuarahy guýpe',
    'mitãnguéra oñembosarái',
    'oñembosaráipa mitã',
  ].map((t, i) => ({ id: `p${i}`, source: `${t} ${i % 3 ? 'la casa' : 'el sol'}`, target: t }));

  /** Indexes: built in memory (segments), with a pair removed, and loaded (packed postings and derived n-grams). */
  function indexes(): HybridIndex[] {
    const built = new HybridIndex();
    built.add(pairs);
    const removed = new HybridIndex();
    removed.add(pairs);
    removed.remove(['p2', 'p7']);
    return [built, removed, HybridIndex.deserialize(built.serialize()), HybridIndex.deserialize(removed.serialize())];
  }

  /** Deterministic shuffle (a linear congruential generator): terms in an order unrelated to their keys. */
  function shuffled<T>(xs: T[], seed: number): T[] {
    const out = [...xs];
    let s = seed;
    for (let i = out.length - 1; i > 0; i--) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const j = s % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  it('scores a query as its terms one by one: the same sums (bit for bit) and documents listed in the order first touched', () => {
    for (const ix of indexes()) {
      const { fields, alive, n } = fieldsOf(ix);
      for (const f of fields) {
        const keys = [...new Set([...(f.packed?.keys ?? []), ...(f.grams?.keys ?? []), ...f.segs.flatMap((s) => [...s.keys])])];
        for (let seed = 1; seed <= 6; seed++) {
          const query = new Map(shuffled(keys, seed).map((k, i) => [k, 1 + (i % 3 === 0 ? 1 : 0)]));
          for (const maxDfFrac of [0.12, 0.35, 1]) {
            // the whole query; touched has room for every document and the spare slot only
            const acc = new Float64Array(n);
            const touched = new Int32Array(n + 1);
            const nt = f.score(query, alive, acc, touched, 0, maxDfFrac);
            // reference: each term alone, added up in query order; documents in the order a term first reaches them
            const ref = new Float64Array(n);
            const order: number[] = [];
            for (const [t, qtf] of query) {
              const one = new Float64Array(n);
              const oneTouched = new Int32Array(n + 1);
              const k = f.score(new Map([[t, qtf]]), alive, one, oneTouched, 0, maxDfFrac);
              for (let i = 0; i < k; i++) {
                const d = oneTouched[i];
                if (ref[d] === 0) order.push(d);
                ref[d] += one[d];
              }
            }
            expect([...touched.subarray(0, nt)]).toEqual(order);
            expect([...acc]).toEqual([...ref]);
            for (const d of order) expect(alive[d]).toBe(1);
            if (alive.subarray(0, n).every((x) => x === 1)) {
              // every document live: the same without the live table (as a search passes it then)
              const acc2 = new Float64Array(n);
              const touched2 = new Int32Array(n + 1);
              const nt2 = f.score(query, null, acc2, touched2, 0, maxDfFrac);
              expect([...touched2.subarray(0, nt2)]).toEqual(order);
              expect([...acc2]).toEqual([...ref]);
            }
          }
        }
      }
    }
  });

  it('lists every live document once when a term reaches all of them (the count reaches the number of documents)', () => {
    const ix = new HybridIndex();
    ix.add(pairs.map((p, i) => ({ ...p, source: `casa ${i}` })));
    const { fields, alive, n } = fieldsOf(ix);
    const word = fields[0];
    const keys = [...new Set(word.segs.flatMap((s) => [...s.keys]))];
    const acc = new Float64Array(n);
    const touched = new Int32Array(n + 1);
    const nt = word.score(new Map(keys.map((k) => [k, 1])), alive, acc, touched, 0, 1);
    expect(nt).toBe(n);
    expect([...touched.subarray(0, nt)].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
  });
});

describe('HybridIndex artifact (schema 9: the words of a side instead of its word keys and gram lists)', () => {
  // and forms that match through character n-grams only
  const queries = [...TOY_QUERIES, ['cantaban los perritos', 'source'], ["yapupiwa q'uchupxapxi", 'target']] as const;

  it('stores the words of each side, not their keys and gram lists, and answers after loading as the index that wrote it', () => {
    const ix = new HybridIndex();
    ix.add(toyCorpus());
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    for (const side of [0, 1]) {
      expect(r.has(`words${side}`)).toBe(true);
      for (const gone of ['wordKeys', 'gramKeys', 'gramStart', 'gramWordKeyGap', 'gramMult']) expect(r.has(`${gone}${side}`)).toBe(false);
    }
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) {
      expect(copy.search(q, 8, { side })).toEqual(ix.search(q, 8, { side }));
      expect(copy.embedText(q, side)).toEqual(ix.embedText(q, side));
    }
    expect(copy.serialize()).toEqual(bytes);
    // and keeps accepting pairs, answering as the index that wrote it given the same pairs
    const more = toyCorpus().map((p) => ({ ...p, id: `more-${p.id}`, source: `${p.source} otra vez` }));
    copy.add(more);
    ix.add(more);
    for (const [q, side] of queries) expect(copy.search(q, 8, { side })).toEqual(ix.search(q, 8, { side }));
  });

  it('keeps the stored gram lists of a side where two words share a key, and answers after loading as before', () => {
    // 'kxibub' and 'kthaef' hash to the same word key (found by search): one source-side posting list holds both
    const ix = new HybridIndex();
    ix.add([...toyCorpus(), ...COLLIDING]);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect([r.has('words0'), r.has('wordKeys0'), r.has('gramKeys0')]).toEqual([false, true, true]);
    expect(r.has('words1')).toBe(true);
    const copy = HybridIndex.deserialize(bytes);
    for (const q of ['kxibub', 'kthaef', 'el kxibu come', 'kthae duerme']) expect(copy.search(q, 8)).toEqual(ix.search(q, 8));
    expect(copy.serialize()).toEqual(bytes);
  });

  it('still reads a schema 8 index (gram lists stored) and answers as after re-encoding it', () => {
    const stored = new Uint8Array(fs.readFileSync(SCHEMA8));
    const r = ArtifactReader.open(stored, 'INDX');
    expect([r.schema, r.has('gramWordKeyGap0'), r.has('words0')]).toEqual([8, true, false]);
    const old = HybridIndex.deserialize(stored);
    const again = HybridIndex.deserialize(old.serialize());
    expect(ArtifactReader.open(again.serialize(), 'INDX').has('words0')).toBe(true);
    for (const [q, side] of queries) expect(again.search(q, 8, { side })).toEqual(old.search(q, 8, { side }));
  });
});

describe('HybridIndex artifact (schema 10: document vectors of a small index computed again from its postings)', () => {
  const queries = [...TOY_QUERIES, ['cantaban los perritos', 'source'], ["yapupiwa q'uchupxapxi", 'target']] as const;
  const vectorSections = (side: number): string[] => ['Q8', 'Row', 'Q', 'Scale', 'Q31', 'Max', 'ScaleFix'].map((x) => `vec${side}${x}`);

  it('stores no document vector, and answers after loading as the index that wrote it (scores, embeddings, written again)', () => {
    const ix = new HybridIndex();
    ix.add([...toyCorpus(), ...PAIRS, { id: 'marks', source: '¡¿…?!', target: '—' }]);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect(r.schema).toBe(INDEX_SCHEMA);
    for (const side of [0, 1]) {
      expect(r.meta(`vec${side}Derived`)).toBe(true);
      for (const gone of vectorSections(side)) expect(r.has(gone)).toBe(false);
      // every vector was computed from the whole corpus: the postings give each one
      expect(r.has(`vec${side}FixDoc`)).toBe(false);
    }
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) {
      expect(copy.search(q, 10, { side })).toEqual(ix.search(q, 10, { side }));
      expect(copy.embedText(q, side)).toEqual(ix.embedText(q, side));
    }
    expect(copy.serialize()).toEqual(bytes);
    expect(HybridIndex.deserialize(bytes).serialize()).toEqual(bytes);
    // and keeps accepting pairs, answering as the index that wrote it given the same pairs
    const more = [{ id: 'zorro', source: 'Un zorro rojo come pan.', target: "Qamaqi t'ant'a manq'i." }];
    copy.add(more);
    ix.add(more);
    for (const [q, side] of queries) expect(copy.search(q, 10, { side })).toEqual(ix.search(q, 10, { side }));
  });

  it('stores the vectors its postings do not give (computed before later pairs taught more), and answers as before', () => {
    const pairs = toyCorpus();
    const ix = new HybridIndex();
    ix.add(pairs.slice(0, 50));
    ix.add(pairs.slice(50)); // fewer than 30% new: the first 50 vectors are not computed again
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    const stale = [0, 1].map((side) => (r.has(`vec${side}FixDoc`) ? r.count(`vec${side}FixDoc`) : r.has(`vec${side}Q8`) ? 'all' : 0));
    expect(stale.some((x) => x !== 0)).toBe(true);
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) expect(copy.search(q, 10, { side })).toEqual(ix.search(q, 10, { side }));
    expect(copy.serialize()).toEqual(bytes);
  });

  it('stores as fixes the few vectors its postings give otherwise (one more document changes every idf a little)', () => {
    const ix = new HybridIndex();
    ix.add(toyCorpus());
    // only new words: no context row of the others changes, but the document count does (vectors not computed again)
    ix.add([{ id: 'new', source: 'Xilófono zumbido lejano.', target: 'Tuqtuq phuqhu.' }]);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect([r.meta('vec0Derived'), r.has('vec0Q8')]).toEqual([true, false]);
    const fixed = r.int32('vec0FixDoc');
    expect(fixed.length).toBeGreaterThan(0);
    expect(fixed.length).toBeLessThan(ix.size / 4);
    expect(r.count('vec0FixQ8')).toBe(fixed.length * 32);
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) expect(copy.search(q, 10, { side })).toEqual(ix.search(q, 10, { side }));
    expect(copy.serialize()).toEqual(bytes);
  });

  it('keeps no more of its stored context rows after computing the vectors than its query needed', () => {
    // words in two documents each: their context rows are stored, in several blocks
    const pairs = Array.from({ length: 1500 }, (_, i) => ({ id: `p${i}`, source: `pal${i} pal${i + 1} casa`, target: `sim${i} sim${i + 1} uta` }));
    const ix = new HybridIndex();
    ix.add(pairs);
    const bytes = ix.serialize();
    expect(ArtifactReader.open(bytes, 'INDX').meta('vec0Derived')).toBe(true);
    const blocksRead = (x: HybridIndex): number =>
      (x as unknown as { ctx: { quantized: { q: { blocks: unknown[] } } } }).ctx.quantized.q.blocks.filter((b) => b !== undefined).length;
    const searched = HybridIndex.deserialize(bytes);
    expect(searched.search('casa', 5)).toEqual(ix.search('casa', 5));
    const embedded = HybridIndex.deserialize(bytes);
    embedded.embedText('casa');
    expect(blocksRead(embedded)).toBe(1);
    expect(blocksRead(searched)).toBe(blocksRead(embedded));
  });

  it('counts from its load the document vectors a search holds (floats), stored or computed again', () => {
    const pending = (x: HybridIndex): number[] => (x as unknown as { pendingBytes: number[] }).pendingBytes.slice();
    const held = (x: HybridIndex): number[] =>
      (x as unknown as { storedDense: ({ rows: Float32Array; rowOf: Int32Array } | null)[] }).storedDense.map((d) =>
        d ? d.rows.byteLength + d.rowOf.byteLength : 0,
      );
    for (const pairs of [toyCorpus(), [...toyCorpus(), ...COLLIDING]]) {
      const ix = new HybridIndex();
      ix.add(pairs);
      const copy = HybridIndex.deserialize(ix.serialize());
      const counted = pending(copy);
      copy.search('el gato canta en el río', 5);
      copy.search("misi q'uchu yapu", 5, { side: 'target' });
      held(copy).forEach((bytes, side) => {
        expect(bytes).toBeGreaterThan(0);
        expect(counted[side]).toBeGreaterThan(bytes);
      });
    }
  });

  it('still reads a schema 9 index (vectors stored) and answers as after re-encoding it', () => {
    const stored = new Uint8Array(fs.readFileSync(SCHEMA9));
    const r = ArtifactReader.open(stored, 'INDX');
    expect([r.schema, r.has('vec0Q8'), r.has('vec1Q8')]).toEqual([9, true, true]);
    const old = HybridIndex.deserialize(stored);
    // (a pair removed and one added after its vectors were computed: too many differ from what the postings give)
    const bytes = old.serialize();
    expect(ArtifactReader.open(bytes, 'INDX').schema).toBe(INDEX_SCHEMA);
    const again = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) expect(again.search(q, 10, { side })).toEqual(old.search(q, 10, { side }));
    expect(again.serialize()).toEqual(bytes);
  });

  it('stores the vectors of a side whose words it does not store (two words share a key)', () => {
    const ix = new HybridIndex();
    ix.add([...toyCorpus(), ...COLLIDING]);
    const bytes = ix.serialize();
    const r = ArtifactReader.open(bytes, 'INDX');
    expect([r.has('vec0Q8'), r.has('vec1Q8')]).toEqual([true, true]);
    const copy = HybridIndex.deserialize(bytes);
    for (const [q, side] of queries) expect(copy.search(q, 10, { side })).toEqual(ix.search(q, 10, { side }));
  });
});
