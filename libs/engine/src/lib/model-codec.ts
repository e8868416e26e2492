/**
 * The model artifact (`MODL` container of artifact-codec): write, read (also the legacy `GAIAMDL1` blobs, migrated in
 * memory), and the bytes a loaded model holds.
 */
import { ArtifactFormatError, ArtifactReader, ArtifactWriter } from './artifact-codec';
import { unpackLegacyBinary } from './legacy-binary';
import type { AffixPattern } from './affixes';
import type { LexTable } from './lexicon';
import { KnLm } from './lm';
import { CharLm } from './char-lm';
import type { AgentModel, ModelCalibration, ModelStats } from './model';
import { OptionChunks, optionChunkSections, type OptionColumns, writeOptionChunks } from './phrase-chunks';
import {
  FrontCodedKeys,
  PackedPhraseTable,
  PHRASE_SCORES_PER_OPTION,
  PhraseKeyIndex,
  type PhraseOptions,
  type PhraseTable,
  type StoredKeyLookup,
} from './phrase-table';
import type { Segmenter } from './subword';
import { borrowingRateOf, type SpellingCounts, spellingCounts } from './unknown-words';
import { type SideVocab, WordIndex } from './vocabulary';

/**
 * Schema of the `MODL` artifact written by `serializeModel` (container: artifact-codec). 3: phrase scores stored
 * column after column (`scoreCols0/1`), and the `segmenters` metadata is part of the model: an engine that reads
 * schema 2 only (and would ignore it, modelling subword agents in whole words) refuses these artifacts. 4: the phrase
 * options stored in chunks inflated when a key in them is first asked for (phrase-chunks.ts) instead of whole columns,
 * which an engine reading schema 3 at most would not find, and the keys front-coded (`keyShared`, `keyNew`; the first
 * schema 4 artifacts stored `keyIds` whole, which still loads). 5: the phrase scores as 8-bit codes into a codebook per
 * score column (`optBook<d>`) instead of 16-bit uniform codes: an engine reading schema 4 at most would read the codes
 * as 16-bit ones, so it refuses these artifacts. Within schema 5, a language model may leave out its trigrams seen once
 * and store per context how many it left out (`lm<d>x3p`, lm.ts): an engine that does not know that section still
 * reads such a model (its trigram contexts then give the bigram estimate a little less weight), so no new schema.
 */
export const MODEL_SCHEMA = 5;
/** Schema 2 (scores interleaved per option, `segmenters` optional) and 3 (whole option columns) still load. */
const MIN_MODEL_SCHEMA = 2;
const MODEL_KIND = 'MODL';
/** Stored integers are little-endian: read in place only on such machines. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Sections of one direction's phrase table keys. */
const keySections = (d: number): string[] => ['keyLen', 'keyShared', 'keyNew', 'keyIds', 'off'].map((x) => `${x}${d}`);
/** Sections of its options before schema 4 (schema 2 stored the scores interleaved as `scores<d>`). */
const columnSections = (d: number): string[] => ['tgtOff', 'tgtIds', 'scoreCols', 'scores'].map((x) => `${x}${d}`);

export function serializeModel(m: AgentModel): Uint8Array {
  return writeModel(m, true);
}

/** The model artifact; with `spelling` false without the spelling model of unknown words (a load counts it again). */
function writeModel(m: AgentModel, spelling: boolean): Uint8Array {
  const w = new ArtifactWriter(MODEL_KIND, MODEL_SCHEMA);
  w.meta('stats', m.stats).meta('affixes', m.affixes);
  if (m.calibration) w.meta('calibration', m.calibration);
  if (m.segmenters) w.meta('segmenters', m.segmenters);
  for (let d = 0; d < 2; d++) {
    const side = m.sides[d];
    w.strings(`words${d}`, side.words).strings(`cased${d}`, side.cased).uints(`freq${d}`, side.freq);
    // how often each word ends a sentence (sentence-ends.ts), as the ids of the words that do and their counts
    if (side.finals) {
      const ends = side.finals;
      const ids = Array.from(ends.keys()).filter((id) => ends[id] > 0);
      w.offsets(`finalIds${d}`, ids).uints(
        `finalN${d}`,
        ids.map((id) => ends[id]),
      );
    }
    const t = m.tables[d];
    // keys as word ids of the input side, front-coded (a key learned after the phrase it extends shares its words):
    // lengths, words shared with the previous key, the other ids
    const keyLen = new Uint8Array(t.keys.length);
    const keyShared = new Uint8Array(t.keys.length);
    const keyNew: number[] = [];
    let prev: number[] = [];
    t.keys.forEach((k, i) => {
      const ids = k.split(' ').map((x) => side.index.get(x) ?? 0);
      let shared = 0;
      while (shared < ids.length && shared < prev.length && ids[shared] === prev[shared]) shared++;
      keyLen[i] = ids.length;
      keyShared[i] = shared;
      for (let j = shared; j < ids.length; j++) keyNew.push(ids[j]);
      prev = ids;
    });
    const cols = optionColumns(t, keyLen.length);
    w.raw(`keyLen${d}`, keyLen).raw(`keyShared${d}`, keyShared).uints(`keyNew${d}`, keyNew).offsets(`off${d}`, cols.off);
    writeOptionChunks(w, d, cols);
    w.offsets(`lexOff${d}`, m.lex[d].off).uints(`lexIds${d}`, m.lex[d].ids).raw(`lexProbs${d}`, m.lex[d].probs);
    m.lms[d].write(w, `lm${d}`);
    m.charLms?.[d].write(w, d);
  }
  // the spelling model of unknown words, counted once here instead of by every load (optional: older artifacts lack it)
  const counted = spelling ? (m.spelling ?? [spellingCounts(m.sides[0].words), spellingCounts(m.sides[1].words)]) : [];
  if (counted[0] && counted[1]) {
    w.meta('borrowing', [borrowingRateOf(m, 0), borrowingRateOf(m, 1)]);
    [counted[0], counted[1]].forEach((c, d) =>
      w
        .uints(`spellChars${d}`, c.chars)
        .sortedKeys(`spellTri${d}`, c.triKeys)
        .uints(`spellTriN${d}`, c.triCounts)
        .sortedKeys(`spellBi${d}`, c.biKeys)
        .uints(`spellBiN${d}`, c.biCounts),
    );
  }
  return w.finish();
}

/**
 * A model artifact in at most `maxBytes` (issue #13: everything stored for an agent within 3× its text): as it is when it
 * fits; else without the spelling model of unknown words (a load counts it from the vocabularies again: the same
 * answers, a few milliseconds at the first unknown word); else also with its character LMs cut to the highest order
 * that fits (`CharLm.withOrder`: a lower order is fewer n-grams), else without them (the decoder goes without, as for
 * models learned before them). The rest of the model is written again as it was read.
 */
export function modelWithinBytes(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes.byteLength <= maxBytes) return bytes;
  const m = deserializeModel(bytes);
  const lean = writeModel(m, false);
  const clm = m.charLms;
  if (lean.byteLength <= maxBytes || !clm) return lean;
  const rest = lean.byteLength - charLmBytes(clm);
  let pair: [CharLm, CharLm] = clm;
  for (let k = clm[0].order - 1; k >= 1; k--) {
    // each order cut from the one above it: a loaded model's stored counts are decoded once
    const cut = [pair[0].withOrder(k), pair[1].withOrder(k)];
    if (!cut[0] || !cut[1]) break;
    pair = [cut[0], cut[1]];
    if (rest + charLmBytes(pair) > maxBytes) continue;
    // (the estimate leaves out the container's directory entries: checked on the bytes written)
    const out = writeModel({ ...m, charLms: pair }, false);
    if (out.byteLength <= maxBytes) return out;
  }
  return writeModel({ ...m, charLms: undefined }, false);
}

/** The bytes the two sides' character LMs take in an artifact (written alone, less an empty container's bytes). */
function charLmBytes(clm: readonly [CharLm, CharLm]): number {
  const w = new ArtifactWriter(MODEL_KIND, MODEL_SCHEMA);
  clm.forEach((c, d) => c.write(w, d));
  return w.finish().byteLength - new ArtifactWriter(MODEL_KIND, MODEL_SCHEMA).finish().byteLength;
}

/** Reads a model artifact: the current `MODL` container, or a legacy `GAIAMDL1` blob (migrated in memory). */
export function deserializeModel(bytes: Uint8Array): AgentModel {
  if (!ArtifactReader.is(bytes)) return deserializeLegacyModel(bytes);
  const r = ArtifactReader.open(bytes, MODEL_KIND);
  if (r.schema < MIN_MODEL_SCHEMA || r.schema > MODEL_SCHEMA)
    throw new ArtifactFormatError(`model schema ${r.schema} is not readable by this engine (reads ${MIN_MODEL_SCHEMA}..${MODEL_SCHEMA})`);
  // the phrase tables and language models are decoded on their first use, each from a copy of its own stored
  // sections (the caller's buffer may be a whole agent artifact): a direction nobody asks for costs its stored bytes
  const table = (d: number): StoredPhraseTable =>
    new StoredPhraseTable(
      r.extract(keySections(d)),
      r.extract(OptionChunks.has(r, d) ? optionChunkSections(d) : columnSections(d)),
      r.extract([`counts${d}`]),
      d,
      sides[d],
    );
  const lm = (d: number): KnLm => KnLm.stored(r.extract(KnLm.sections(`lm${d}`)), `lm${d}`);
  const side = (d: number): SideVocab => {
    const words = r.stringArray(`words${d}`);
    // the written forms are read for the output side only (recasing): decoded on first use from a copy of their section
    const storedCased = r.extract([`cased${d}`]);
    let cased: string[] | undefined;
    return {
      words,
      get cased(): string[] {
        return (cased ??= storedCased.stringArray(`cased${d}`));
      },
      index: new WordIndex(words),
      freq: r.float32(`freq${d}`),
      // absent in artifacts written before it: the sentence-end cost is then 0
      finals: r.has(`finalIds${d}`) ? finals(d, words.length) : undefined,
    };
  };
  const finals = (d: number, n: number): Float32Array => {
    const ids = r.int32(`finalIds${d}`);
    const counts = r.int32(`finalN${d}`);
    if (ids.length !== counts.length || (ids.length && ids[ids.length - 1] >= n)) throw new ArtifactFormatError(`sentence-end counts of side ${d} are corrupt`);
    const out = new Float32Array(n);
    ids.forEach((id, x) => (out[id] = counts[x]));
    return out;
  };
  const sides: [SideVocab, SideVocab] = [side(0), side(1)];
  // copied, like every other decoded column, so the model keeps no view into the artifact buffer
  const lex = (d: number): LexTable => ({ off: r.int32(`lexOff${d}`), ids: r.int32(`lexIds${d}`), probs: r.raw<Float32Array>(`lexProbs${d}`).slice() });
  const spelling = (d: number): SpellingCounts => ({
    chars: r.int32(`spellChars${d}`),
    triKeys: r.float64(`spellTri${d}`),
    triCounts: r.int32(`spellTriN${d}`),
    biKeys: r.float64(`spellBi${d}`),
    biCounts: r.int32(`spellBiN${d}`),
    borrowing: r.meta<[number, number] | undefined>('borrowing')?.[d],
  });
  return {
    version: 1,
    sides,
    tables: [table(0), table(1)],
    lms: [lm(0), lm(1)],
    // absent in artifacts written before it: the decoder goes without
    charLms: CharLm.stored(r) ? [CharLm.read(r, 0), CharLm.read(r, 1)] : undefined,
    lex: [lex(0), lex(1)],
    stats: r.meta<ModelStats>('stats'),
    affixes: r.meta<[AffixPattern[], AffixPattern[]]>('affixes'),
    calibration: r.meta<ModelCalibration | undefined>('calibration'),
    // absent in artifacts written before subword segmentation: their words are modelled whole
    segmenters: r.meta<[Segmenter, Segmenter] | undefined>('segmenters'),
    // absent in artifacts written before it: counted from the vocabularies when first needed
    spelling: r.has('spellChars0') ? [spelling(0), spelling(1)] : undefined,
  };
}

/**
 * The key word ids as stored (`uints`: 1, 2 or 4 bytes per id), viewed in place instead of widened to 32 bits: a cold
 * load reads a million of them.
 */
function storedIds(r: ArtifactReader, name: string): Uint8Array | Uint16Array | Uint32Array {
  const n = r.count(name);
  const b = r.bytesOf(name);
  const width = n ? b.byteLength / n : 1;
  const C = width === 1 ? Uint8Array : width === 2 ? Uint16Array : width === 4 ? Uint32Array : null;
  if (!C || !LITTLE_ENDIAN) return Uint32Array.from(r.int32(name));
  const src = b.byteOffset % width === 0 ? b : b.slice();
  return new C(src.buffer as ArrayBuffer, src.byteOffset, n);
}

/** The whole option columns of a table (what the writer reads). */
function optionColumns(t: PhraseTable, keys: number): OptionColumns {
  if (t instanceof PackedPhraseTable) return t;
  const off = new Int32Array(keys + 1);
  const lens: number[] = [];
  const tgtIds: number[] = [];
  const scores: number[] = [];
  const counts: number[] = [];
  for (let k = 0; k < keys; k++) {
    const o = t.options(k);
    off[k + 1] = off[k] + o.to - o.from;
    for (let x = o.from; x < o.to; x++) {
      lens.push(o.tgtOff[x + 1] - o.tgtOff[x]);
      for (let y = o.tgtOff[x]; y < o.tgtOff[x + 1]; y++) tgtIds.push(o.tgtIds[y]);
      for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++) scores.push(o.scores[x * PHRASE_SCORES_PER_OPTION + s]);
      counts.push(o.counts[x]);
    }
  }
  const tgtOff = new Int32Array(lens.length + 1);
  lens.forEach((n, x) => (tgtOff[x + 1] = tgtOff[x] + n));
  return { off, tgtOff, tgtIds: Int32Array.from(tgtIds), scores: Float32Array.from(scores), counts: Float32Array.from(counts) };
}

/** The options of a stored table: chunks decoded per key asked (schema 4), or whole columns (before). */
interface StoredOptions {
  options(k: number): PhraseOptions;
  readonly byteSize: number;
}

/** Option columns stored whole (schemas 2 and 3): decoded together on first use, the counts on their own first use. */
class WholeColumns implements StoredOptions {
  private readonly tgtOff: Int32Array;
  private readonly tgtIds: Int32Array;
  private readonly scores: Float32Array;
  private countsCol: Float32Array | null = null;

  constructor(
    r: ArtifactReader,
    /** the stored counts section (a copy), released once decoded */
    private storedCounts: ArtifactReader | null,
    private readonly d: number,
    private readonly off: Int32Array,
  ) {
    this.tgtOff = r.int32(`tgtOff${d}`);
    this.tgtIds = r.int32(`tgtIds${d}`);
    this.scores = r.has(`scoreCols${d}`) ? r.float32(`scoreCols${d}`, PHRASE_SCORES_PER_OPTION) : r.float32(`scores${d}`);
  }

  /** The counts are read by lexicon lookups only. */
  private get counts(): Float32Array {
    if (!this.countsCol) {
      this.countsCol = (this.storedCounts as ArtifactReader).float32(`counts${this.d}`);
      this.storedCounts = null;
    }
    return this.countsCol;
  }

  options(k: number): PhraseOptions {
    // the getter below runs with the options object as `this`; an alias costs nothing on this hot path (a closure would allocate)
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const columns = this;
    // the counts are decoded when read (lexicon lookups), not by the decoder's options
    return {
      from: this.off[k],
      to: this.off[k + 1],
      tgtOff: this.tgtOff,
      tgtIds: this.tgtIds,
      scores: this.scores,
      get counts(): Float32Array {
        return columns.counts;
      },
    };
  }

  get byteSize(): number {
    const counts = this.countsCol?.byteLength ?? (this.storedCounts as ArtifactReader).byteLength;
    return this.tgtOff.byteLength + this.tgtIds.byteLength + this.scores.byteLength + counts;
  }
}

/**
 * A phrase table of a loaded model artifact: its keys are decoded from the artifact on the first lookup, its options on
 * the first read (from schema 4 only the chunk of the key read).
 */
class StoredPhraseTable implements PhraseTable {
  private keyCols: { keyIndex: StoredKeyLookup; off: Int32Array } | null = null;
  private opts: StoredOptions | null = null;
  private texts: WeakRef<string[]> | undefined;

  constructor(
    /** the stored key sections (a copy), released once decoded */
    private storedKeys: ArtifactReader | null,
    /** the stored option sections (a copy), released once decoded or handed to the chunks */
    private storedOptions: ArtifactReader | null,
    /** the stored counts section before schema 4 (a copy) */
    private readonly storedCounts: ArtifactReader,
    private readonly d: number,
    private readonly side: SideVocab,
  ) {}

  private get k(): { keyIndex: StoredKeyLookup; off: Int32Array } {
    if (this.keyCols) return this.keyCols;
    const r = this.storedKeys as ArtifactReader;
    const d = this.d;
    const len = r.raw<Uint8Array>(`keyLen${d}`);
    let keyIndex: StoredKeyLookup;
    if (r.has(`keyNew${d}`)) keyIndex = new FrontCodedKeys(this.side, len, r.raw<Uint8Array>(`keyShared${d}`), storedIds(r, `keyNew${d}`));
    else {
      // the first schema 4 layout: every id stored
      const start = new Int32Array(len.length + 1);
      for (let i = 0; i < len.length; i++) start[i + 1] = start[i] + len[i];
      keyIndex = new PhraseKeyIndex(this.side, start, storedIds(r, `keyIds${d}`));
    }
    this.keyCols = { keyIndex, off: r.int32(`off${d}`) };
    this.storedKeys = null;
    return this.keyCols;
  }

  get keyIndex(): StoredKeyLookup {
    return this.k.keyIndex;
  }

  options(k: number): PhraseOptions {
    if (!this.opts) {
      const r = this.storedOptions as ArtifactReader;
      this.opts = OptionChunks.has(r, this.d) ? new OptionChunks(r, this.d, this.k.off) : new WholeColumns(r, this.storedCounts, this.d, this.k.off);
      this.storedOptions = null;
    }
    return this.opts.options(k);
  }

  /**
   * The key texts are only needed by the decoder's back-offs (which keep the single words they want): built on
   * access and only weakly kept, so a loaded agent does not carry every phrase as a string.
   */
  get keys(): string[] {
    const hit = this.texts?.deref();
    if (hit) return hit;
    const all = this.k.keyIndex.texts();
    this.texts = new WeakRef(all);
    return all;
  }

  /** Bytes held: what is decoded, and the copies of the stored sections not decoded yet. */
  get byteSize(): number {
    const keys = this.keyCols ? this.keyCols.keyIndex.byteSize + this.keyCols.off.byteLength : (this.storedKeys as ArtifactReader).byteLength;
    const options = this.opts ? this.opts.byteSize : (this.storedOptions as ArtifactReader).byteLength + this.storedCounts.byteLength;
    return keys + options;
  }
}

/** Approximate bytes a loaded model holds in memory (typed arrays, vocabularies, key lookups, LM caches). */
export function modelByteSize(m: AgentModel): number {
  const STRING_OVERHEAD = 40;
  const MAP_ENTRY = 64;
  /** a phrase key string is longer than a word: a few words and their spaces */
  const PHRASE_KEY_EXTRA = 24;
  let b = 0;
  for (const lm of m.lms) b += lm.cacheBytesBound;
  for (let d = 0; d < 2; d++) {
    const v = m.sides[d];
    b +=
      v.freq.byteLength +
      (v.finals?.byteLength ?? 0) +
      v.words.length * STRING_OVERHEAD +
      (v.index instanceof WordIndex ? v.index.byteSize : v.words.length * MAP_ENTRY);
    for (const w of v.words) b += 2 * w.length;
    const t = m.tables[d];
    if (t instanceof StoredPhraseTable) b += t.byteSize;
    else if (t instanceof PackedPhraseTable)
      b += t.byteSize + (t.keyIndex instanceof PhraseKeyIndex ? t.keyIndex.byteSize : t.keyIndex.size * (STRING_OVERHEAD + MAP_ENTRY + PHRASE_KEY_EXTRA));
    b += m.lex[d].off.byteLength + m.lex[d].ids.byteLength + m.lex[d].probs.byteLength;
    b += m.lms[d].tableBytes + (m.charLms?.[d].byteSize ?? 0);
    const sp = m.spelling?.[d];
    if (sp) b += sp.chars.byteLength + sp.triKeys.byteLength + sp.triCounts.byteLength + sp.biKeys.byteLength + sp.biCounts.byteLength;
  }
  return b;
}

interface LegacyModelHeader {
  words: [string[], string[]];
  cased: [string[], string[]];
  keys: [string[], string[]];
  lms: [Record<string, number>, Record<string, number>];
  stats: ModelStats;
  affixes: [AffixPattern[], AffixPattern[]];
}

/** Artifacts written before the container existed (JSON header + typed arrays). */
function deserializeLegacyModel(bytes: Uint8Array): AgentModel {
  const { header: h, arrays: a } = unpackLegacyBinary<LegacyModelHeader>('GAIAMDL1', bytes);
  const side = (d: number): SideVocab => ({
    words: h.words[d],
    cased: h.cased[d],
    index: new Map(h.words[d].map((w, i) => [w, i])),
    freq: a[`freq${d}`] as Float32Array,
  });
  const table = (d: number): PhraseTable =>
    new PackedPhraseTable(
      h.keys[d],
      new Map(h.keys[d].map((k, i) => [k, i])),
      a[`off${d}`] as Int32Array,
      a[`tgtOff${d}`] as Int32Array,
      a[`tgtIds${d}`] as Int32Array,
      a[`scores${d}`] as Float32Array,
      a[`counts${d}`] as Float32Array,
    );
  const lex = (d: number): LexTable => ({
    off: a[`lexOff${d}`] as Int32Array,
    ids: a[`lexIds${d}`] as Int32Array,
    probs: a[`lexProbs${d}`] as Float32Array,
  });
  return {
    version: 1,
    sides: [side(0), side(1)],
    tables: [table(0), table(1)],
    lms: [KnLm.fromLegacyArrays('lm0', h.lms[0], a), KnLm.fromLegacyArrays('lm1', h.lms[1], a)],
    lex: [lex(0), lex(1)],
    stats: h.stats,
    affixes: h.affixes,
  };
}
