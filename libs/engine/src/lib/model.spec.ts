import { composeCoreMemory, splitCoreMemory, summarizeCoreMemory } from './core-memory';
import { lookupLexicon } from './lexicon';
import { type AgentModel, trainAgentModel } from './model';
import { CharLm } from './char-lm';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactFormatError, ArtifactReader } from './artifact-codec';
import { HybridIndex } from './hybrid-index';
import { deserializeModel, MODEL_SCHEMA, modelWithinBytes, serializeModel } from './model-codec';
import { PHRASE_SCORES_PER_OPTION, type PhraseOptions } from './phrase-table';
import { SentenceEnds } from './sentence-ends';
import { Translator } from './translator';
import { UnknownWords } from './unknown-words';
import { toyCorpus } from '../testing/toy-corpus';

/**
 * Artifacts of the toy corpus written by older engines: before model schema 3 / index schema 5 (container version 3),
 * model schema 3 (before the phrase options were stored in chunks), the first schema 4 layout (key ids stored whole),
 * schema 4 (16-bit score codes), and before the container (GAIAMDL1 / GAIAIDX2 blobs).
 */
const FIXTURES = path.join(__dirname, '../testing/fixtures');

/** An agent read from an old artifact and its re-encoding answer alike (both directions). */
function expectSameAnswers(a: Translator, b: Translator): void {
  for (const [text, direction] of [
    ['El perro come en la casa.', 'forward'],
    ['La mujer canta.', 'forward'],
    ["Warmi q'uchu.", 'reverse'],
  ] as const)
    expect(JSON.stringify(b.translateText(text, { direction }))).toBe(JSON.stringify(a.translateText(text, { direction })));
}

describe('core memory (trainAgentModel)', () => {
  const progress: number[] = [];
  const model = trainAgentModel(toyCorpus(), { onProgress: (f) => progress.push(f) });

  it('reports monotonic progress from 0 to 1', () => {
    expect(progress[0]).toBe(0);
    expect(progress[progress.length - 1]).toBe(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
  });

  it('learns a bilingual lexicon in both directions', () => {
    const fwd = lookupLexicon(model, 'perro', 'forward');
    expect(fwd[0]).toMatchObject({ source: 'perro', target: 'anu' });
    const rev = lookupLexicon(model, "manq'i", 'reverse');
    expect(rev[0]).toMatchObject({ source: "manq'i", target: 'come' });
  });

  it('extracts multiword phrase pairs (article + noun → one word)', () => {
    const hits = lookupLexicon(model, 'el gato', 'forward');
    expect(hits.find((h) => h.source === 'el gato')?.target).toBe('misi');
    const casa = lookupLexicon(model, 'casa', 'forward');
    expect(casa[0]).toMatchObject({ source: 'casa', target: 'utapi' });
  });

  it('records length statistics', () => {
    expect(model.stats.pairs).toBe(toyCorpus().length);
    expect(model.stats.charRatioCorpus).toBeGreaterThan(0.4);
    expect(model.stats.charRatioCorpus).toBeLessThan(1);
    expect(model.stats.tokenRatioCorpus).toBeLessThan(1);
  });

  it('writes a readable summary with glossary, affix patterns and statistics', () => {
    const text = summarizeCoreMemory(model, { srcLang: 'es', tgtLang: 'xx' });
    expect(text).toContain('## Glossary');
    expect(text).toContain('perro → anu');
    expect(text).toContain('## Affix patterns');
    expect(text).toMatch(/"en" ↔ -pi/);
    expect(text).toContain(`${toyCorpus().length} sentence pairs`);
  });

  it('round-trips through serializeModel / deserializeModel', () => {
    const bytes = serializeModel(model);
    const copy = deserializeModel(bytes);
    expect(copy.stats).toEqual(model.stats);
    expect(lookupLexicon(copy, 'el gato duerme en el campo', 'forward')).toEqual(lookupLexicon(model, 'el gato duerme en el campo', 'forward'));
    expect(copy.lms[1].logProb(1, 1, 5)).toBeCloseTo(model.lms[1].logProb(1, 1, 5), 6);
    // the character LMs too, exactly
    for (const d of [0, 1] as const) {
      const toks = d === 0 ? ['el', 'gato', 'duerme', '.'] : ['misi', 'utapi', 'ikiri', '.'];
      const lp = (m: AgentModel): number => {
        const clm = m.charLms?.[d];
        return clm ? clm.logProbOf(CharLm.START, clm.span(toks), true) : 0;
      };
      expect(lp(model)).toBeLessThan(0);
      expect(lp(copy)).toBe(lp(model));
    }
    expect(summarizeCoreMemory(copy)).toBe(summarizeCoreMemory(model));
    expect(() => deserializeModel(bytes.subarray(0, 4))).toThrow();
  });

  it('stores the spelling model of unknown words, which a loaded model reads instead of counting its vocabularies', () => {
    const copy = deserializeModel(serializeModel(model));
    expect(copy.spelling?.[1].chars.length).toBeGreaterThan(0);
    const learned = new UnknownWords(model, [0.5, 0.5]);
    const loaded = new UnknownWords(copy, [0.5, 0.5]);
    const words = [...model.sides[0].words, ...model.sides[1].words, 'documental', 'kuchillu', 'ñandeko', 'x'];
    for (const dir of [0, 1] as const) for (const w of words) expect(loaded.looksLike(w, dir)).toBe(learned.looksLike(w, dir));
    // the borrowing rate of each direction is stored with them and read back as the learned model computes it
    for (const dir of [0, 1] as const) {
      expect(copy.spelling?.[dir].borrowing).toBe(learned.borrowingRate(dir));
      expect(loaded.borrowingRate(dir)).toBe(learned.borrowingRate(dir));
    }
    // re-encoding a loaded model writes the counts it read
    expect(serializeModel(copy)).toEqual(serializeModel(model));
  });

  it('stores how often each word ends a sentence, which a loaded model reads (older artifacts have no counts)', () => {
    const copy = deserializeModel(serializeModel(model));
    for (const d of [0, 1] as const) {
      expect(model.sides[d].finals?.some((n) => n > 0)).toBe(true);
      expect(copy.sides[d].finals).toEqual(model.sides[d].finals);
    }
    // the toy sentences end with a verb: none ends with the article that opens them
    const el = model.sides[0].index.get('el') ?? 0;
    expect(model.sides[0].finals?.[el]).toBe(0);
    expect(new SentenceEnds(copy.sides[0]).cost(el)).toBeLessThan(-1);
    const old = deserializeModel(new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-modl-schema4.bin'))));
    expect(old.sides[0].finals).toBeUndefined();
    expect(new SentenceEnds(old.sides[0]).cost(el)).toBe(0);
  });

  it('writes model schema 5 (8-bit phrase score codes), which engines reading schema 4 at most refuse', () => {
    const bytes = serializeModel(model);
    expect(MODEL_SCHEMA).toBe(5);
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(10, true)).toBe(5);
    // the check of such an engine: schema above the newest it reads (4)
    expect(ArtifactReader.open(bytes, 'MODL').schema).toBeGreaterThan(4);
    expect(ArtifactReader.open(bytes, 'MODL').has('optBook0')).toBe(true);
    const newer = bytes.slice();
    new DataView(newer.buffer).setUint16(10, MODEL_SCHEMA + 1, true);
    expect(() => deserializeModel(newer)).toThrow(ArtifactFormatError);
  });

  it('fits a byte bound: first without what a load derives again, then its character LMs cut to an order that fits', () => {
    const bytes = serializeModel(model);
    const index = new HybridIndex();
    index.add(toyCorpus());
    const agent = (b: Uint8Array): Translator => new Translator(deserializeModel(b), index);
    // within the bound: the same bytes
    expect(modelWithinBytes(bytes, bytes.byteLength)).toBe(bytes);
    // just over it: the spelling model of unknown words left out (a load counts it from the vocabularies: the same
    // answers), the character LMs whole
    const lean = modelWithinBytes(bytes, bytes.byteLength - 1);
    expect(lean.byteLength).toBeLessThan(bytes.byteLength);
    expect(deserializeModel(lean).spelling).toBeUndefined();
    expect(deserializeModel(lean).charLms?.[1].order).toBe(5);
    expectSameAnswers(agent(bytes), agent(lean));
    for (const dir of [0, 1] as const)
      expect(new UnknownWords(deserializeModel(lean), [0.5, 0.5]).borrowingRate(dir)).toBe(new UnknownWords(model, [0.5, 0.5]).borrowingRate(dir));
    const orderOf = (b: Uint8Array): number | undefined => deserializeModel(b).charLms?.[1].order;
    // the bytes at each order without the spelling model (the bound just under the whole model at that order)
    const sizes = [4, 3, 2, 1].map((k) => {
      const whole = serializeModel({ ...model, charLms: [model.charLms![0].withOrder(k)!, model.charLms![1].withOrder(k)!] });
      return modelWithinBytes(whole, whole.byteLength - 1).byteLength;
    });
    expect(sizes).toEqual([...sizes].sort((x, y) => y - x));
    // a bound between order 3's bytes and order 4's: order 3
    const fitted = modelWithinBytes(bytes, sizes[1] + 1);
    expect(fitted.byteLength).toBeLessThanOrEqual(sizes[1] + 1);
    expect(orderOf(fitted)).toBe(3);
    // everything else answers as it did: the same answers as the model with its LMs cut in memory
    const cut = new Translator({ ...model, charLms: [model.charLms![0].withOrder(3)!, model.charLms![1].withOrder(3)!] }, index);
    expectSameAnswers(cut, agent(fitted));
    // below order 1's bytes: without them
    const none = modelWithinBytes(bytes, sizes[3] - 1);
    expect(deserializeModel(none).charLms).toBeUndefined();
    expectSameAnswers(new Translator({ ...model, charLms: undefined }, index), agent(none));
  });

  it('still reads a schema 3 model (whole option columns) and answers as after re-encoding it', () => {
    const stored = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-modl-schema3.bin')));
    const storedIndex = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-indx-schema4.bin')));
    expect(ArtifactReader.open(stored, 'MODL').schema).toBe(3);
    const old = deserializeModel(stored);
    const again = deserializeModel(serializeModel(deserializeModel(stored)));
    expect(ArtifactReader.open(serializeModel(old), 'MODL').schema).toBe(MODEL_SCHEMA);
    for (const [text, direction] of [
      ['el gato duerme en el campo', 'forward'],
      ["misi manq'i", 'reverse'],
    ] as const)
      expect(lookupLexicon(again, text, direction)).toEqual(lookupLexicon(old, text, direction));
    expectSameAnswers(new Translator(old, HybridIndex.deserialize(storedIndex)), new Translator(again, HybridIndex.deserialize(storedIndex)));
    // re-encoding the re-encoded model writes the same bytes
    expect(serializeModel(again)).toEqual(serializeModel(old));
  });

  it('still reads a schema 4 model (16-bit score codes) and answers as after re-encoding it with 8-bit codes', () => {
    const stored = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-modl-schema4.bin')));
    const storedIndex = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-indx-schema4.bin')));
    expect(ArtifactReader.open(stored, 'MODL').schema).toBe(4);
    expect(ArtifactReader.open(stored, 'MODL').has('optBook0')).toBe(false);
    const old = deserializeModel(stored);
    const again = deserializeModel(serializeModel(old));
    // the toy table has fewer distinct scores per column than codes: every score comes back as the 16-bit codes read
    const scoresOf = (o: PhraseOptions): number[] => Array.from(o.scores.subarray(o.from * PHRASE_SCORES_PER_OPTION, o.to * PHRASE_SCORES_PER_OPTION));
    for (const dir of [0, 1] as const)
      for (let k = 0; k < old.tables[dir].keys.length; k++) expect(scoresOf(again.tables[dir].options(k))).toEqual(scoresOf(old.tables[dir].options(k)));
    expectSameAnswers(new Translator(old, HybridIndex.deserialize(storedIndex)), new Translator(again, HybridIndex.deserialize(storedIndex)));
  });

  it('still reads the first schema 4 layout (key ids stored whole) and answers as after re-encoding it front-coded', () => {
    const stored = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-modl-schema4-keyids.bin')));
    const storedIndex = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-indx-schema4.bin')));
    expect(ArtifactReader.open(stored, 'MODL').has('keyIds0')).toBe(true);
    const old = deserializeModel(stored);
    const again = deserializeModel(serializeModel(old));
    expect(ArtifactReader.open(serializeModel(old), 'MODL').has('keyIds0')).toBe(false);
    for (const dir of [0, 1] as const) expect(again.tables[dir].keys).toEqual(old.tables[dir].keys);
    expectSameAnswers(new Translator(old, HybridIndex.deserialize(storedIndex)), new Translator(again, HybridIndex.deserialize(storedIndex)));
  });

  it('still reads a schema 2 model (scores interleaved) and answers as after re-encoding it', () => {
    const stored = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-modl-schema2.bin')));
    const storedIndex = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-indx-schema4.bin')));
    expect([ArtifactReader.open(stored, 'MODL').schema, ArtifactReader.open(storedIndex, 'INDX').schema]).toEqual([2, 4]);
    const old = deserializeModel(stored);
    const again = deserializeModel(serializeModel(deserializeModel(stored)));
    for (const [text, direction] of [
      ['el gato duerme en el campo', 'forward'],
      ["misi manq'i", 'reverse'],
    ] as const)
      expect(lookupLexicon(again, text, direction)).toEqual(lookupLexicon(old, text, direction));
    expectSameAnswers(
      new Translator(old, HybridIndex.deserialize(storedIndex)),
      new Translator(again, HybridIndex.deserialize(HybridIndex.deserialize(storedIndex).serialize())),
    );
    expect(lookupLexicon(old, 'perro', 'forward')[0]).toMatchObject({ source: 'perro', target: 'anu' });
  });

  it('still reads the blobs written before the container (GAIAMDL1 / GAIAIDX2) and answers as after re-encoding them', () => {
    const stored = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-gaiamdl1.bin')));
    const storedIndex = new Uint8Array(fs.readFileSync(path.join(FIXTURES, 'toy-gaiaidx2.bin')));
    expect([ArtifactReader.is(stored), ArtifactReader.is(storedIndex)]).toEqual([false, false]);
    const old = deserializeModel(stored);
    expect(lookupLexicon(old, 'perro', 'forward')[0]).toMatchObject({ source: 'perro', target: 'anu' });
    const a = new Translator(old, HybridIndex.deserialize(storedIndex));
    expectSameAnswers(a, new Translator(deserializeModel(serializeModel(old)), HybridIndex.deserialize(HybridIndex.deserialize(storedIndex).serialize())));
    expect(a.translateText('El perro come.').translation).toMatch(/anu/i);
  });
});

describe('core_memory text with owner notes', () => {
  it('keeps the owner notes verbatim when the learned part is regenerated', () => {
    const notes = 'Use the Jopara register.\nNever translate brand names.';
    const first = composeCoreMemory('# Learned v1', notes);
    const parts = splitCoreMemory(first);
    expect(parts).toEqual({ ownerNotes: notes, learned: '# Learned v1' });
    const second = composeCoreMemory('# Learned v2', parts.ownerNotes);
    expect(splitCoreMemory(second)).toEqual({ ownerNotes: notes, learned: '# Learned v2' });
  });

  it('treats a text without the learned marker as owner notes', () => {
    expect(splitCoreMemory('my own notes')).toEqual({ ownerNotes: 'my own notes', learned: '' });
    expect(splitCoreMemory(composeCoreMemory('# L'))).toEqual({ ownerNotes: '', learned: '# L' });
  });
});
