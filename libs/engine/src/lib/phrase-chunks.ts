/**
 * The options of a stored phrase table in chunks (model schema 4): the keys stay whole (their lookup needs them all),
 * the options' output lengths, output words, scores and counts are cut into chunks of consecutive keys, each column of
 * a chunk deflated on its own. A loaded table inflates a chunk the first time a key in it is asked for: a cold first
 * translation reads the few chunks its phrases are in (keys are in the order they were first seen, so the frequent
 * ones share the first chunks) instead of every option of the table.
 *
 * Sections of direction d: `optZ<d>` (the parts one after the other: per chunk the output lengths, the output word
 * ids, the four score columns as codes, the counts), `optByte<d>` (the byte offset of each part) and, from model
 * schema 5, `optBook<d>` (per score column its codebook: the 8-bit codes are indexes into it); metadata `optChunks<d>`
 * = { chunks, widths } (the bytes per value of lengths, word ids and counts; schema 4 also `lo`, `step`: its 16-bit
 * codes' uniform quantization as the container's `quantized` sections). A part is one flag byte (0: values,
 * 1: values in byte planes, 2: values stored as they are) and the values deflated (flags 0 and 1).
 *
 * 8-bit codes: each score column gets the 256 levels that fit its values best (1-D k-means from evenly spaced levels,
 * the distinct values themselves when there are no more than levels); the low byte of a 16-bit code was nearly random and
 * deflated to almost a byte per value, about half of an agent's option bytes.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ArtifactFormatError, type ArtifactReader, type ArtifactWriter, ByteSink } from './artifact-codec';
import { PHRASE_SCORES_PER_OPTION, type PhraseOptions } from './phrase-table';

/** Options per chunk, about (a cold first translation inflates a few of them; smaller chunks deflate worse). */
const CHUNK_OPTIONS = 4500;
/** 16-bit score codes: 0..Q16_LEVELS for finite values, then -Infinity, +Infinity, NaN (as artifact-codec's `quantized`). */
const Q16_LEVELS = 65532;
const Q16_SPECIAL = [-Infinity, Infinity, NaN];
/** Parts: lengths, word ids, the score columns, counts. */
const PARTS_PER_CHUNK = 3 + PHRASE_SCORES_PER_OPTION;
const FLAG_VALUES = 0;
const FLAG_PLANES = 1;
const FLAG_STORED = 2;
/** The chunks are written once per model: the best deflate. */
const DEFLATE_LEVEL = 9;

/** 8-bit score codes: levels of one column's codebook (non-finite values, when present, take one level each). */
const BOOK_LEVELS = 256;
/** Lloyd iterations refining a codebook from its quantile start (the error stops falling after a few). */
const BOOK_ITERATIONS = 6;

/** The section names of direction d's option chunks. */
export const optionChunkSections = (d: number): string[] => [`optZ${d}`, `optByte${d}`, `optBook${d}`];

interface ChunkMeta {
  chunks: number;
  /** schema 4 only: the 16-bit codes' uniform quantization (code x is lo + x · step) */
  lo?: number;
  step?: number;
  /** bytes per value of the lengths, word ids and counts */
  widths: [number, number, number];
}

/** The whole option columns of a table (as a learned table holds them). */
export interface OptionColumns {
  /** per key: its options are off[k]..off[k + 1] - 1 */
  off: Int32Array;
  tgtOff: Int32Array;
  tgtIds: Int32Array;
  scores: Float32Array;
  counts: Float32Array;
}

/** First key of chunk c of `chunks` over `keys` keys. */
const chunkStart = (c: number, chunks: number, keys: number): number => Math.floor((c * keys) / chunks);

function widthOf(values: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(v >= 0) || v > 0x7fffffff || !Number.isInteger(v)) throw new Error(`phrase option value ${v} is not a non-negative int32`);
    if (v > max) max = v;
  }
  return max < 256 ? 1 : max < 65536 ? 2 : 4;
}

/** Little-endian values of w bytes, one after the other or (planes) byte k of every value together. */
function valueBytes(values: ArrayLike<number>, w: number, planes: boolean): Uint8Array {
  const n = values.length;
  const out = new Uint8Array(n * w);
  for (let i = 0; i < n; i++) for (let k = 0, v = values[i]; k < w; k++, v >>>= 8) out[planes ? k * n + i : i * w + k] = v & 0xff;
  return out;
}

function bytesValues(b: Uint8Array, w: number, n: number, planes: boolean): Int32Array {
  if (b.length !== n * w) throw new ArtifactFormatError(`phrase option chunk is corrupt (${b.length} bytes for ${n} values of ${w})`);
  const out = new Int32Array(n);
  if (w === 1) for (let i = 0; i < n; i++) out[i] = b[i];
  else if (w === 2) for (let i = 0; i < n; i++) out[i] = planes ? b[i] | (b[n + i] << 8) : b[2 * i] | (b[2 * i + 1] << 8);
  else if (planes) for (let i = 0; i < n; i++) out[i] = b[i] | (b[n + i] << 8) | (b[2 * n + i] << 16) | (b[3 * n + i] << 24);
  else for (let i = 0; i < n; i++) out[i] = b[4 * i] | (b[4 * i + 1] << 8) | (b[4 * i + 2] << 16) | (b[4 * i + 3] << 24);
  return out;
}

/**
 * One part: the smallest of the values deflated, their byte planes deflated (when `planes` may pay), or the values as
 * they are.
 */
function writePart(sink: ByteSink, values: ArrayLike<number>, w: number, planes: boolean): void {
  const plain = valueBytes(values, w, false);
  let flag = FLAG_STORED;
  let best: Uint8Array = plain;
  const z = deflateRawSync(plain, { level: DEFLATE_LEVEL });
  if (z.byteLength < best.byteLength) [flag, best] = [FLAG_VALUES, z];
  if (w > 1 && planes) {
    const p = deflateRawSync(valueBytes(values, w, true), { level: DEFLATE_LEVEL });
    if (p.byteLength < best.byteLength) [flag, best] = [FLAG_PLANES, p];
  }
  sink.bytes(Uint8Array.of(flag));
  sink.bytes(best);
}

/** A part's values as stored (inflated when deflated), and whether they are in byte planes. */
function partBytes(b: Uint8Array, w: number, n: number): { raw: Uint8Array; planes: boolean } {
  const flag = b[0];
  if (flag === FLAG_STORED) return { raw: b.subarray(1), planes: false };
  if (flag !== FLAG_VALUES && flag !== FLAG_PLANES) throw new ArtifactFormatError(`phrase option chunk is corrupt (part flag ${flag})`);
  return { raw: inflateRawSync(b.subarray(1), { chunkSize: Math.max(64, n * w) }), planes: flag === FLAG_PLANES };
}

function readPart(b: Uint8Array, w: number, n: number): Int32Array {
  const { raw, planes } = partBytes(b, w, n);
  return bytesValues(raw, w, n, planes);
}

/** A part of n 8-bit score codes written as their codebook values (from `book[at]`) into column s of the interleaved scores. */
function readBookScoresInto(b: Uint8Array, n: number, book: Float32Array, at: number, scores: Float32Array, s: number): void {
  const { raw } = partBytes(b, 1, n);
  if (raw.length !== n) throw new ArtifactFormatError(`phrase option chunk is corrupt (${raw.length} bytes for ${n} scores)`);
  for (let o = 0; o < n; o++) scores[o * PHRASE_SCORES_PER_OPTION + s] = book[at + raw[o]];
}

/** A part of n 16-bit score codes (schema 4) written as their values into column s of the interleaved scores (no code array). */
function readScoresInto(b: Uint8Array, n: number, table: Float32Array, scores: Float32Array, s: number): void {
  const { raw, planes } = partBytes(b, 2, n);
  if (raw.length !== 2 * n) throw new ArtifactFormatError(`phrase option chunk is corrupt (${raw.length} bytes for ${n} scores)`);
  if (planes) for (let o = 0; o < n; o++) scores[o * PHRASE_SCORES_PER_OPTION + s] = table[raw[o] | (raw[n + o] << 8)];
  else for (let o = 0; o < n; o++) scores[o * PHRASE_SCORES_PER_OPTION + s] = table[raw[2 * o] | (raw[2 * o + 1] << 8)];
}

/**
 * The codebook of one score column (values `scores[s]`, `scores[s + stride]`, …): its finite levels in ascending
 * order, then its non-finite values (each its own level). Levels are the means of their values (1-D k-means started
 * from evenly spaced levels): a squared error below that of evenly spaced levels.
 */
export function scoreCodebook(scores: Float32Array, s: number, stride: number): Float32Array {
  const finite: number[] = [];
  const special: number[] = [];
  for (let x = s; x < scores.length; x += stride) {
    const v = scores[x];
    if (Number.isFinite(v)) finite.push(v);
    else if (!special.some((u) => Object.is(u, v))) special.push(v);
  }
  const sorted = Float64Array.from(finite).sort();
  const levels = BOOK_LEVELS - special.length;
  const distinct: number[] = [];
  for (let i = 0; i < sorted.length && distinct.length <= levels; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct.push(sorted[i]);
  if (distinct.length <= levels) return Float32Array.from([...distinct, ...special]);
  const n = sorted.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + sorted[i];
  /** first index whose value is > v */
  const upper = (v: number): number => {
    let a = 0;
    let b = n;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (sorted[m] <= v) a = m + 1;
      else b = m;
    }
    return a;
  };
  // bins as index bounds: evenly spaced over the values' range first (log-probabilities: an even relative error), then
  // the bins of the means' midpoints, which lowers the squared error at every step (an empty bin gives up its level)
  const [lo, hi] = [sorted[0], sorted[n - 1]];
  let bounds: number[] = [0];
  for (let l = 1; l < levels; l++) {
    const i = upper(lo + ((hi - lo) * l) / levels);
    if (i > bounds[bounds.length - 1] && i < n) bounds.push(i);
  }
  bounds.push(n);
  let means: number[] = [];
  for (let it = 0; ; it++) {
    means = [];
    for (let b = 0; b + 1 < bounds.length; b++)
      if (bounds[b + 1] > bounds[b]) means.push((prefix[bounds[b + 1]] - prefix[bounds[b]]) / (bounds[b + 1] - bounds[b]));
    if (it === BOOK_ITERATIONS) break;
    bounds = [0];
    for (let l = 0; l + 1 < means.length; l++) bounds.push(upper((means[l] + means[l + 1]) / 2));
    bounds.push(n);
  }
  return Float32Array.from([...Float32Array.from(means).sort(), ...special]);
}

/** Codes of one score column against its codebook: the nearest level (non-finite values their own). */
function scoreCodes(scores: Float32Array, s: number, o0: number, o1: number, book: Float32Array): Uint8Array {
  let finite = book.length;
  while (finite > 0 && !Number.isFinite(book[finite - 1])) finite--;
  const out = new Uint8Array(o1 - o0);
  for (let o = o0; o < o1; o++) {
    const v = scores[o * PHRASE_SCORES_PER_OPTION + s];
    if (!Number.isFinite(v)) {
      out[o - o0] = book.findIndex((u, i) => i >= finite && Object.is(u, v));
      continue;
    }
    let a = 0;
    let b = finite - 1;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (book[m] < v) a = m + 1;
      else b = m;
    }
    out[o - o0] = a > 0 && v - book[a - 1] < book[a] - v ? a - 1 : a;
  }
  return out;
}

/** Writes the option columns of direction d's table in chunks (sections of `optionChunkSections(d)`), scores as 8-bit codes. */
export function writeOptionChunks(w: ArtifactWriter, d: number, t: OptionColumns): void {
  const keys = t.off.length - 1;
  const options = t.off[keys];
  const chunks = keys === 0 ? 0 : Math.max(1, Math.round(options / CHUNK_OPTIONS));
  const scores = t.scores.subarray(0, options * PHRASE_SCORES_PER_OPTION);
  const books = Array.from({ length: PHRASE_SCORES_PER_OPTION }, (_, s) => scoreCodebook(scores, s, PHRASE_SCORES_PER_OPTION));
  const bookBytes = new Float32Array(PHRASE_SCORES_PER_OPTION * BOOK_LEVELS);
  books.forEach((b, s) => bookBytes.set(b, s * BOOK_LEVELS));
  const lens = new Int32Array(options);
  for (let o = 0; o < options; o++) lens[o] = t.tgtOff[o + 1] - t.tgtOff[o];
  const widths: [number, number, number] = [widthOf(lens), widthOf(t.tgtIds.subarray(0, t.tgtOff[options])), widthOf(t.counts.subarray(0, options))];
  const sink = new ByteSink();
  const starts: number[] = [0];
  for (let c = 0; c < chunks; c++) {
    const o0 = t.off[chunkStart(c, chunks, keys)];
    const o1 = t.off[chunkStart(c + 1, chunks, keys)];
    const part = (values: ArrayLike<number>, width: number, planes: boolean): void => {
      writePart(sink, values, width, planes);
      starts.push(sink.length);
    };
    // byte planes are tried where they won on real tables (counts), not for word ids
    part(lens.subarray(o0, o1), widths[0], false);
    part(t.tgtIds.subarray(t.tgtOff[o0], t.tgtOff[o1]), widths[1], false);
    for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++) part(scoreCodes(t.scores, s, o0, o1, books[s]), 1, false);
    part(t.counts.subarray(o0, o1), widths[2], true);
  }
  w.meta(`optChunks${d}`, { chunks, widths } satisfies ChunkMeta);
  w.raw(`optZ${d}`, sink.finish()).offsets(`optByte${d}`, starts).raw(`optBook${d}`, bookBytes);
}

/** One decoded chunk: the options of its keys, numbered from its first option (the counts decoded on their own first read). */
interface Chunk {
  tgtOff: Int32Array;
  tgtIds: Int32Array;
  scores: Float32Array;
  counts: Float32Array | null;
}

/** The option chunks of a loaded table (schema 4): each inflated the first time one of its keys is asked for. */
export class OptionChunks {
  private readonly meta: ChunkMeta;
  private readonly blob: Uint8Array;
  private readonly starts: Int32Array;
  private readonly loaded: (Chunk | undefined)[];
  /** schema 5: the score columns' codebooks (BOOK_LEVELS values each); schema 4: null (16-bit codes) */
  private readonly book: Float32Array | null;
  private table: Float32Array | null = null;
  private decodedBytes = 0;

  static has(r: ArtifactReader, d: number): boolean {
    return r.has(`optZ${d}`);
  }

  constructor(
    /** the chunks' sections (a copy of them) */
    stored: ArtifactReader,
    d: number,
    /** per key: its options are off[k]..off[k + 1] - 1 */
    private readonly off: Int32Array,
  ) {
    this.meta = stored.meta<ChunkMeta>(`optChunks${d}`);
    this.blob = stored.raw<Uint8Array>(`optZ${d}`);
    this.starts = stored.int32(`optByte${d}`);
    this.book = stored.has(`optBook${d}`) ? stored.raw<Float32Array>(`optBook${d}`) : null;
    if (this.book && this.book.length !== PHRASE_SCORES_PER_OPTION * BOOK_LEVELS)
      throw new ArtifactFormatError(`phrase score codebooks of direction ${d} are corrupt`);
    if (this.starts.length !== this.meta.chunks * PARTS_PER_CHUNK + 1) throw new ArtifactFormatError(`phrase option chunks of direction ${d} are corrupt`);
    this.loaded = new Array<Chunk | undefined>(this.meta.chunks);
  }

  private get keys(): number {
    return this.off.length - 1;
  }

  /** The chunk key k is in. */
  private chunkOf(k: number): number {
    const n = this.meta.chunks;
    let c = Math.min(n - 1, Math.floor((k * n) / this.keys));
    while (c > 0 && chunkStart(c, n, this.keys) > k) c--;
    while (c < n - 1 && chunkStart(c + 1, n, this.keys) <= k) c++;
    return c;
  }

  private chunk(c: number): Chunk {
    const hit = this.loaded[c];
    if (hit) return hit;
    const { chunks, lo = 0, step = 1, widths } = this.meta;
    if (!this.book && !this.table) {
      // schema 4: 16-bit uniform codes
      const table = new Float32Array(Q16_LEVELS + 1 + Q16_SPECIAL.length);
      for (let x = 0; x <= Q16_LEVELS; x++) table[x] = lo + x * step;
      Q16_SPECIAL.forEach((v, i) => (table[Q16_LEVELS + 1 + i] = v));
      this.table = table;
    }
    const o0 = this.off[chunkStart(c, chunks, this.keys)];
    const n = this.off[chunkStart(c + 1, chunks, this.keys)] - o0;
    let part = c * PARTS_PER_CHUNK;
    const next = (count: number, width: number): Int32Array => {
      const out = readPart(this.blob.subarray(this.starts[part], this.starts[part + 1]), width, count);
      part++;
      return out;
    };
    const lens = next(n, widths[0]);
    const tgtOff = new Int32Array(n + 1);
    for (let o = 0; o < n; o++) tgtOff[o + 1] = tgtOff[o] + lens[o];
    const tgtIds = next(tgtOff[n], widths[1]);
    const scores = new Float32Array(n * PHRASE_SCORES_PER_OPTION);
    for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++, part++) {
      const b = this.blob.subarray(this.starts[part], this.starts[part + 1]);
      if (this.book) readBookScoresInto(b, n, this.book, s * BOOK_LEVELS, scores, s);
      else readScoresInto(b, n, this.table as Float32Array, scores, s);
    }
    const chunk = { tgtOff, tgtIds, scores, counts: null };
    this.loaded[c] = chunk;
    this.decodedBytes += tgtOff.byteLength + tgtIds.byteLength + scores.byteLength;
    return chunk;
  }

  /** The counts of chunk c (read by lexicon lookups only, not by the decoder). */
  private counts(c: number, chunk: Chunk): Float32Array {
    if (chunk.counts) return chunk.counts;
    const part = (c + 1) * PARTS_PER_CHUNK - 1;
    const n = chunk.tgtOff.length - 1;
    chunk.counts = new Float32Array(readPart(this.blob.subarray(this.starts[part], this.starts[part + 1]), this.meta.widths[2], n));
    this.decodedBytes += chunk.counts.byteLength;
    return chunk.counts;
  }

  options(k: number): PhraseOptions {
    const c = this.chunkOf(k);
    const chunk = this.chunk(c);
    const base = this.off[chunkStart(c, this.meta.chunks, this.keys)];
    // the getter below runs with the options object as `this`; an alias costs nothing on this hot path (a closure would allocate)
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const chunks = this;
    return {
      from: this.off[k] - base,
      to: this.off[k + 1] - base,
      tgtOff: chunk.tgtOff,
      tgtIds: chunk.tgtIds,
      scores: chunk.scores,
      get counts(): Float32Array {
        return chunks.counts(c, chunk);
      },
    };
  }

  /** Bytes held: the stored chunks and codebooks, the chunks decoded so far and the 16-bit code table once built. */
  get byteSize(): number {
    return this.blob.byteLength + this.starts.byteLength + (this.book?.byteLength ?? 0) + this.decodedBytes + (this.table?.byteLength ?? 0);
  }
}
