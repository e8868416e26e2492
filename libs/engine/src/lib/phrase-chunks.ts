/**
 * The options of a stored phrase table in chunks (model schema 4): the keys stay whole (their lookup needs them all),
 * the options' output lengths, output words, scores and counts are cut into chunks of consecutive keys, each column of
 * a chunk deflated on its own. A loaded table inflates a chunk the first time a key in it is asked for: a cold first
 * translation reads the few chunks its phrases are in (keys are in the order they were first seen, so the frequent
 * ones share the first chunks) instead of every option of the table.
 *
 * Sections of direction d: `optZ<d>` (the parts one after the other: per chunk the output lengths, the output word
 * ids, the four score columns as 16-bit codes, the counts) and `optByte<d>` (the byte offset of each part); metadata
 * `optChunks<d>` = { chunks, lo, step, widths } (the codes' quantization, as the container's `quantized` sections, and
 * the bytes per value of lengths, word ids and counts). A part is one flag byte (0: values, 1: values in byte planes,
 * 2: values stored as they are) and the values deflated (flags 0 and 1).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ArtifactFormatError, type ArtifactReader, type ArtifactWriter, ByteSink } from './artifact-codec';
import { PHRASE_SCORE, PHRASE_SCORES_PER_OPTION, type PhraseOptions } from './phrase-table';

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

/** The section names of direction d's option chunks. */
export const optionChunkSections = (d: number): string[] => [`optZ${d}`, `optByte${d}`];

interface ChunkMeta {
  chunks: number;
  lo: number;
  step: number;
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

/** A part of n 16-bit score codes written as their values into column s of the interleaved scores (no code array). */
function readScoresInto(b: Uint8Array, n: number, table: Float32Array, scores: Float32Array, s: number): void {
  const { raw, planes } = partBytes(b, 2, n);
  if (raw.length !== 2 * n) throw new ArtifactFormatError(`phrase option chunk is corrupt (${raw.length} bytes for ${n} scores)`);
  if (planes) for (let o = 0; o < n; o++) scores[o * PHRASE_SCORES_PER_OPTION + s] = table[raw[o] | (raw[n + o] << 8)];
  else for (let o = 0; o < n; o++) scores[o * PHRASE_SCORES_PER_OPTION + s] = table[raw[2 * o] | (raw[2 * o + 1] << 8)];
}

/** Writes the option columns of direction d's table in chunks (sections of `optionChunkSections(d)`). */
export function writeOptionChunks(w: ArtifactWriter, d: number, t: OptionColumns): void {
  const keys = t.off.length - 1;
  const options = t.off[keys];
  const chunks = keys === 0 ? 0 : Math.max(1, Math.round(options / CHUNK_OPTIONS));
  // one 16-bit quantization over every score (as the container's `quantized` over the whole column)
  let lo = Infinity;
  let hi = -Infinity;
  for (let x = 0; x < options * PHRASE_SCORES_PER_OPTION; x++) {
    const v = t.scores[x];
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) lo = hi = 0;
  const step = hi > lo ? (hi - lo) / Q16_LEVELS : 1;
  const code = (v: number): number =>
    Number.isFinite(v) ? Math.round((v - lo) / step) : v === -Infinity ? Q16_LEVELS + 1 : v === Infinity ? Q16_LEVELS + 2 : Q16_LEVELS + 3;
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
    // byte planes are tried where they won on real tables (lexical weights, counts), not for word ids and φ
    part(lens.subarray(o0, o1), widths[0], false);
    part(t.tgtIds.subarray(t.tgtOff[o0], t.tgtOff[o1]), widths[1], false);
    for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++) {
      const codes = new Int32Array(o1 - o0);
      for (let o = o0; o < o1; o++) codes[o - o0] = code(t.scores[o * PHRASE_SCORES_PER_OPTION + s]);
      part(codes, 2, s === PHRASE_SCORE.lexF || s === PHRASE_SCORE.lexR);
    }
    part(t.counts.subarray(o0, o1), widths[2], true);
  }
  w.meta(`optChunks${d}`, { chunks, lo, step, widths } satisfies ChunkMeta);
  w.raw(`optZ${d}`, sink.finish()).offsets(`optByte${d}`, starts);
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
    const { chunks, lo, step, widths } = this.meta;
    if (!this.table) {
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
    for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++, part++)
      readScoresInto(this.blob.subarray(this.starts[part], this.starts[part + 1]), n, this.table, scores, s);
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

  /** Bytes held: the stored chunks, the chunks decoded so far and the code table once built. */
  get byteSize(): number {
    return this.blob.byteLength + this.starts.byteLength + this.decodedBytes + (this.table?.byteLength ?? 0);
  }
}
