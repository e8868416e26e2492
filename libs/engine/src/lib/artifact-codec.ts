/**
 * The engine's binary artifact container (model, index, anything an agent stores).
 *
 *   bytes 0..3   "GAIX" (legacy blobs began "GAIAMDL1" / "GAIAIDX2")
 *   bytes 4..7   kind, 4 ASCII characters ("MODL", "INDX", …)
 *   bytes 8..9   u16 container format version (CODEC_VERSION)
 *   bytes 10..11 u16 schema version of the kind (chosen by the writer of that kind)
 *   bytes 12..15 u32 length of the directory
 *   directory    UTF-8 JSON: small metadata + one entry per section (name, encoding, count, offset, length)
 *   payload      8-byte aligned sections; from container version 3 a section may be stored deflated (raw
 *                DEFLATE, entry field `z` = its decoded length) when that saves at least a tenth of its bytes: it
 *                is inflated when read, so a section nobody reads costs only disk
 *
 * Big tables never go through JSON: they are typed arrays (kept in place when aligned), integer columns in
 * their narrowest width (values or differences), varint-sorted 53-bit keys, 16-bit quantized float columns and string tables (UTF-8 blob +
 * offsets, decoded per string on demand). A new model field is one more `writer.xxx(name, …)` call and
 * one `reader.xxx(name)`; `reader.has(name)` lets a reader accept artifacts written before the field
 * existed.
 */

import { deflateRawSync, inflateRawSync } from 'node:zlib';

export const CODEC_VERSION = 3;
/** Oldest container version this reader still reads (version 2: the same layout, no deflated sections). */
const MIN_READ_VERSION = 2;
/** Sections smaller than this are stored as they are (deflate would save little and cost a call). */
const MIN_DEFLATE_BYTES = 4096;
/** zlib's smallest output chunk. */
const MIN_INFLATE_CHUNK = 64;
/** A section is stored deflated only when that leaves at most this share of its bytes. */
const MAX_DEFLATED_SHARE = 0.9;
const MAGIC = 'GAIX';
const HEAD = 16;
/** The directory carries names, sizes and small metadata only. */
const MAX_DIRECTORY_BYTES = 1 << 16;
/** 16-bit codes: 0..Q16_LEVELS for finite values, then -Infinity, +Infinity, NaN. */
const Q16_LEVELS = 65532;
const Q16_SPECIAL = [-Infinity, Infinity, NaN];
/** Shared decoders (a whole-buffer decode keeps no state between calls). */
const UTF8 = new TextDecoder();
const UTF8_KEEP_BOM = new TextDecoder('utf-8', { ignoreBOM: true });
/** U+FEFF, dropped by TextDecoder at the start of a decoded string. */
const BYTE_ORDER_MARK = 0xfeff;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export type RawArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
type RawKind = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'f32' | 'f64';
type Encoding = RawKind | 'uint' | 'udelta' | 'f64delta' | 'q16' | 'str';

interface SectionEntry {
  name: string;
  enc: Encoding;
  /** number of values (strings for 'str') */
  n: number;
  off: number;
  len: number;
  /** q16: minimum and step; str: byte length of the lengths part; uint/udelta: bytes per value */
  p?: number[];
  /** stored deflated: the decoded byte length */
  z?: number;
  /** deflated after a byte shuffle (byte k of every w-byte value together, k = 0..w-1): w */
  w?: number;
}

/** Bytes per value of an encoding (the byte planes a shuffle groups), 1 for byte streams. */
function valueWidth(enc: Encoding, p: number[] | undefined): number {
  if (enc === 'uint' || enc === 'udelta') return (p as number[])[0];
  if (enc === 'q16') return 2;
  if (enc === 'str' || enc === 'f64delta') return 1;
  return CTORS[enc].BYTES_PER_ELEMENT;
}

/** Byte planes: byte k of value i goes to k·n + i (high bytes of small integers are mostly zero: they deflate well). */
function shuffle(b: Uint8Array, w: number): Uint8Array {
  const n = b.length / w;
  const out = new Uint8Array(b.length);
  for (let k = 0; k < w; k++) for (let i = 0; i < n; i++) out[k * n + i] = b[i * w + k];
  return out;
}

/** Unsigned values of w bytes (2 or 4; at most 2^31 - 1) assembled from their byte planes. */
function valuesFromPlanes(b: Uint8Array, w: number, n: number): Int32Array {
  const out = new Int32Array(n);
  if (w === 2) for (let i = 0; i < n; i++) out[i] = b[i] | (b[n + i] << 8);
  else for (let i = 0; i < n; i++) out[i] = b[i] | (b[n + i] << 8) | (b[2 * n + i] << 16) | (b[3 * n + i] << 24);
  return out;
}

/**
 * 16-bit codes in two byte planes, looked up in their value table; stored as `columns` columns one after the other,
 * written out interleaved (value j of column c at j · columns + c).
 */
function q16FromPlanes(b: Uint8Array, n: number, table: Float32Array, columns: number): Float32Array {
  const out = new Float32Array(n);
  const per = n / columns;
  for (let c = 0, i = 0; c < columns; c++) for (let j = c; i < (c + 1) * per; i++, j += columns) out[j] = table[b[i] | (b[n + i] << 8)];
  return out;
}

function q16FromCodes(q: Uint16Array, table: Float32Array, columns: number): Float32Array {
  const out = new Float32Array(q.length);
  const per = q.length / columns;
  for (let c = 0, i = 0; c < columns; c++) for (let j = c; i < (c + 1) * per; i++, j += columns) out[j] = table[q[i]];
  return out;
}

/** The inverse of `shuffle`, assembling whole little-endian values for the common widths. */
function unshuffle(b: Uint8Array, w: number): Uint8Array {
  const n = b.length / w;
  const out = new Uint8Array(b.length);
  if (w === 2 && LITTLE_ENDIAN) {
    const v = new Uint16Array(out.buffer, 0, n);
    for (let i = 0; i < n; i++) v[i] = b[i] | (b[n + i] << 8);
  } else if (w === 4 && LITTLE_ENDIAN) {
    const v = new Int32Array(out.buffer, 0, n);
    for (let i = 0; i < n; i++) v[i] = b[i] | (b[n + i] << 8) | (b[2 * n + i] << 16) | (b[3 * n + i] << 24);
  } else for (let k = 0; k < w; k++) for (let i = 0; i < n; i++) out[i * w + k] = b[k * n + i];
  return out;
}

interface Directory {
  meta: Record<string, unknown>;
  sections: SectionEntry[];
}

const CTORS = {
  i8: Int8Array,
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

function rawKind(a: RawArray): RawKind {
  if (a instanceof Int8Array) return 'i8';
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Int16Array) return 'i16';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Float32Array) return 'f32';
  return 'f64';
}

/** Growable byte buffer with LEB128 varints. */
export class ByteSink {
  private buf = new Uint8Array(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.length));
    this.buf = b;
  }

  /** Non-negative integer up to 2^53. */
  varint(v: number): void {
    this.room(8);
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Reads one LEB128 varint at `pos[0]`, advancing it. */
export function readVarint(b: Uint8Array, pos: Int32Array | number[]): number {
  let p = pos[0];
  let x = b[p++];
  if (x < 128) {
    pos[0] = p;
    return x;
  }
  let v = x & 127;
  let mul = 128;
  do {
    x = b[p++];
    v += (x & 127) * mul;
    mul *= 128;
  } while (x >= 128);
  pos[0] = p;
  return v;
}

/** n varints (32-bit) from the start of b. */
function decodeVarints(b: Uint8Array, n: number): Int32Array {
  const out = new Int32Array(n);
  let p = 0;
  for (let i = 0; i < n; i++) {
    let x = b[p++];
    if (x >= 128) {
      let v = x & 127;
      let shift = 7;
      do {
        x = b[p++];
        v |= (x & 127) << shift;
        shift += 7;
      } while (x >= 128);
      x = v;
    }
    out[i] = x;
  }
  return out;
}

export class ArtifactWriter {
  private readonly parts: { entry: Omit<SectionEntry, 'off'>; bytes: Uint8Array }[] = [];
  private readonly names = new Set<string>();
  private readonly metaValues: Record<string, unknown> = {};

  constructor(
    private readonly kind: string,
    private readonly schema: number,
  ) {
    if (!/^[A-Z0-9]{4}$/.test(kind)) throw new Error(`artifact kind must be 4 upper-case ASCII characters, got "${kind}"`);
  }

  /** Small values only (numbers, short lists, statistics): the directory is limited to 64 KiB. */
  meta(key: string, value: unknown): this {
    this.metaValues[key] = value;
    return this;
  }

  private add(name: string, enc: Encoding, n: number, bytes: Uint8Array, p?: number[]): this {
    if (this.names.has(name)) throw new Error(`duplicate artifact section "${name}"`);
    this.names.add(name);
    if (bytes.byteLength >= MIN_DEFLATE_BYTES) {
      const w = valueWidth(enc, p);
      const plain = deflateRawSync(bytes);
      const planes = w > 1 && bytes.byteLength % w === 0 ? deflateRawSync(shuffle(bytes, w)) : null;
      const z = planes && planes.byteLength < plain.byteLength ? planes : plain;
      if (z.byteLength <= bytes.byteLength * MAX_DEFLATED_SHARE) {
        const entry = { name, enc, n, len: z.byteLength, z: bytes.byteLength, ...(z === planes ? { w } : {}), ...(p ? { p } : {}) };
        this.parts.push({ entry, bytes: new Uint8Array(z.buffer, z.byteOffset, z.byteLength) });
        return this;
      }
    }
    this.parts.push({ entry: { name, enc, n, len: bytes.byteLength, ...(p ? { p } : {}) }, bytes });
    return this;
  }

  /** A typed array stored as is (read back in place when aligned). */
  raw(name: string, a: RawArray): this {
    return this.add(name, rawKind(a), a.length, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  private narrow(name: string, enc: 'uint' | 'udelta', a: ArrayLike<number>): this {
    let max = 0;
    for (let i = 0; i < a.length; i++) {
      if (!(a[i] >= 0) || a[i] > 0x7fffffff || !Number.isInteger(a[i])) throw new Error(`section "${name}": ${a[i]} is not a non-negative int32`);
      if (a[i] > max) max = a[i];
    }
    const width = max < 256 ? 1 : max < 65536 ? 2 : 4;
    const C = width === 1 ? Uint8Array : width === 2 ? Uint16Array : Uint32Array;
    const out = C.from(a);
    return this.add(name, enc, a.length, new Uint8Array(out.buffer), [width]);
  }

  /** Non-negative int32 values in the narrowest fixed width (1, 2 or 4 bytes); read back as an Int32Array. */
  uints(name: string, a: ArrayLike<number>): this {
    return this.narrow(name, 'uint', a);
  }

  /** A non-decreasing int32 sequence (offsets, sorted keys) as differences in the narrowest width; read back as an Int32Array. */
  offsets(name: string, a: ArrayLike<number>): this {
    const diff = new Float64Array(a.length);
    let prev = 0;
    for (let i = 0; i < a.length; i++) {
      if (a[i] < prev) throw new Error(`section "${name}" is not non-decreasing at ${i}`);
      diff[i] = a[i] - prev;
      prev = a[i];
    }
    return this.narrow(name, 'udelta', diff);
  }

  /** Non-decreasing non-negative integer-valued doubles (packed n-gram keys) as varint differences; read back as a Float64Array. */
  sortedKeys(name: string, a: Float64Array): this {
    const s = new ByteSink();
    let prev = 0;
    for (let i = 0; i < a.length; i++) {
      if (a[i] < prev || !Number.isInteger(a[i])) throw new Error(`section "${name}" is not sorted integers at ${i}`);
      s.varint(a[i] - prev);
      prev = a[i];
    }
    return this.add(name, 'f64delta', a.length, s.finish());
  }

  /**
   * Sorted keys as `sortedKeys`, plus where every `block`-th key's difference starts (`<name>At`, byte offsets) and that
   * key itself (`<name>Head`): a reader can decode the keys a block at a time (`sortedKeyBlocks`). Readers that do not
   * know the two extra sections read the keys as they read `sortedKeys`.
   */
  sortedKeyBlocks(name: string, a: Float64Array, block: number): this {
    const at: number[] = [];
    const heads = new Float64Array(Math.ceil(a.length / block));
    let bytes = 0;
    let prev = 0;
    for (let i = 0; i < a.length; i++) {
      if (i % block === 0) {
        at.push(bytes);
        heads[i / block] = a[i];
      }
      // the varint length of the difference (as ByteSink.varint writes it)
      for (let v = a[i] - prev; v >= 128; v = Math.floor(v / 128)) bytes++;
      bytes++;
      prev = a[i];
    }
    return this.sortedKeys(name, a).offsets(`${name}At`, at).sortedKeys(`${name}Head`, heads);
  }

  /**
   * Floats quantized to 16 bits over the range of their finite values (error ≤ range / 131064; infinities
   * and NaN kept); read back as a Float32Array.
   */
  quantized(name: string, a: Float32Array): this {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (lo > hi) lo = hi = 0;
    const step = hi > lo ? (hi - lo) / Q16_LEVELS : 1;
    const q = new Uint16Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      q[i] = Number.isFinite(v) ? Math.round((v - lo) / step) : v === -Infinity ? Q16_LEVELS + 1 : v === Infinity ? Q16_LEVELS + 2 : Q16_LEVELS + 3;
    }
    return this.add(name, 'q16', a.length, new Uint8Array(q.buffer), [lo, step]);
  }

  /**
   * Interleaved rows of `columns` floats (value c of row j at j · columns + c) quantized like `quantized`, stored
   * column after column (each column's values together deflate far better); `float32(name, columns)` reads them back.
   */
  quantizedColumns(name: string, a: Float32Array, columns: number): this {
    if (a.length % columns !== 0) throw new Error(`section "${name}": ${a.length} values are not rows of ${columns}`);
    const per = a.length / columns;
    const t = new Float32Array(a.length);
    for (let c = 0, i = 0; c < columns; c++) for (let j = c; i < (c + 1) * per; i++, j += columns) t[i] = a[j];
    return this.quantized(name, t);
  }

  /** A string table: UTF-8 blob + varint lengths; strings are decoded one by one when read. */
  strings(name: string, list: readonly string[]): this {
    const enc = new TextEncoder();
    const lens = new ByteSink();
    const blob = new ByteSink();
    for (const s of list) {
      const b = enc.encode(s);
      lens.varint(b.length);
      blob.bytes(b);
    }
    const l = lens.finish();
    const out = new Uint8Array(l.length + blob.length);
    out.set(l, 0);
    out.set(blob.finish(), l.length);
    return this.add(name, 'str', list.length, out, [l.length]);
  }

  finish(): Uint8Array {
    const sections: SectionEntry[] = [];
    let off = 0;
    for (const p of this.parts) {
      sections.push({ ...p.entry, off });
      off += Math.ceil(p.bytes.byteLength / 8) * 8;
    }
    const dir = new TextEncoder().encode(JSON.stringify({ meta: this.metaValues, sections } satisfies Directory));
    if (dir.length > MAX_DIRECTORY_BYTES) throw new Error(`artifact directory too large (${dir.length} bytes): store big tables as sections, not meta`);
    const start = Math.ceil((HEAD + dir.length) / 8) * 8;
    const out = new Uint8Array(start + off);
    const view = new DataView(out.buffer);
    out.set(new TextEncoder().encode(MAGIC + this.kind), 0);
    view.setUint16(8, CODEC_VERSION, true);
    view.setUint16(10, this.schema, true);
    view.setUint32(12, dir.length, true);
    out.set(dir, HEAD);
    sections.forEach((s, i) => out.set(this.parts[i].bytes, start + s.off));
    return out;
  }
}

/** Strings of a table, decoded on first access (one small decode per string). */
export class StringTable {
  private readonly starts: Int32Array;
  private readonly cache: (string | undefined)[];

  constructor(
    private readonly blob: Uint8Array,
    lengths: Int32Array,
  ) {
    this.starts = new Int32Array(lengths.length + 1);
    for (let i = 0; i < lengths.length; i++) this.starts[i + 1] = this.starts[i] + lengths[i];
    this.cache = new Array<string | undefined>(lengths.length);
  }

  get length(): number {
    return this.cache.length;
  }

  get(i: number): string {
    let s = this.cache[i];
    if (s === undefined) {
      s = this.blob.length ? UTF8.decode(this.blob.subarray(this.starts[i], this.starts[i + 1])) : '';
      this.cache[i] = s;
    }
    return s;
  }

  /** Decoded byte length of string i (no decoding). */
  byteLength(i: number): number {
    return this.starts[i + 1] - this.starts[i];
  }

  /** Every string, decoded at once (one decode of the blob, then slices at the strings' UTF-16 offsets). */
  toArray(): string[] {
    const out = new Array<string>(this.length);
    const all = UTF8_KEEP_BOM.decode(this.blob);
    const b = this.blob;
    // UTF-16 length of the text before each string: one unit per UTF-8 lead byte, two for a 4-byte sequence
    let at = 0;
    let unit = 0;
    for (let i = 0; i < out.length; i++) {
      const from = unit;
      for (const end = this.starts[i + 1]; at < end; at++) {
        const x = b[at];
        if ((x & 0xc0) !== 0x80) unit += x >= 0xf0 ? 2 : 1;
      }
      const s = all.slice(from, unit);
      // a string decoded alone loses a leading byte-order mark (as `get` does)
      out[i] = this.cache[i] ?? (s.charCodeAt(0) === BYTE_ORDER_MARK ? s.slice(1) : s);
    }
    return out;
  }

  /** Bytes held (blob + offsets), for memory budgets. */
  get byteSize(): number {
    return this.blob.byteLength + this.starts.byteLength;
  }
}

export class ArtifactReader {
  readonly kind: string;
  readonly schema: number;
  private readonly dir: Directory;
  private readonly byName = new Map<string, SectionEntry>();
  private readonly start: number;

  private constructor(
    private readonly bytes: Uint8Array,
    /** a part of another reader (`extract`): its kind, schema and directory, its sections from byte 0 of `bytes` */
    part?: { kind: string; schema: number; dir: Directory },
  ) {
    if (part) {
      this.kind = part.kind;
      this.schema = part.schema;
      this.dir = part.dir;
      this.start = 0;
      for (const s of this.dir.sections) this.byName.set(s.name, s);
      return;
    }
    const head = UTF8.decode(bytes.subarray(0, 8));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = view.getUint16(8, true);
    if (version < MIN_READ_VERSION || version > CODEC_VERSION)
      throw new ArtifactFormatError(`unsupported artifact container version ${version} (this engine reads ${MIN_READ_VERSION}..${CODEC_VERSION})`);
    this.kind = head.slice(4);
    this.schema = view.getUint16(10, true);
    const dlen = view.getUint32(12, true);
    this.dir = JSON.parse(UTF8.decode(bytes.subarray(HEAD, HEAD + dlen))) as Directory;
    this.start = Math.ceil((HEAD + dlen) / 8) * 8;
    for (const s of this.dir.sections) this.byName.set(s.name, s);
  }

  /** Whether `bytes` start like a container of this codec (any kind). */
  static is(bytes: Uint8Array): boolean {
    return bytes.byteLength >= HEAD && bytes[0] === 0x47 && bytes[1] === 0x41 && bytes[2] === 0x49 && bytes[3] === 0x58;
  }

  static open(bytes: Uint8Array, kind: string): ArtifactReader {
    if (!ArtifactReader.is(bytes)) throw new ArtifactFormatError(`not a ${kind} artifact (no GAIX container header)`);
    const r = new ArtifactReader(bytes);
    if (r.kind !== kind) throw new ArtifactFormatError(`expected a ${kind} artifact, found ${r.kind}`);
    return r;
  }

  meta<T>(key: string): T {
    return this.dir.meta[key] as T;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Bytes this reader reads (the container, or an extracted part's sections). */
  get byteLength(): number {
    return this.bytes.byteLength;
  }

  /** Bytes the named sections (those present) take once decoded, from the directory: nothing is decoded. */
  decodedBytes(names: readonly string[]): number {
    let b = 0;
    for (const name of names) {
      const e = this.byName.get(name);
      if (e) b += e.z ?? e.len;
    }
    return b;
  }

  /**
   * A reader of only the named sections (those present), copied as stored, with this one's kind, schema and metadata:
   * what a part decoded later needs, without keeping the whole artifact's bytes.
   */
  extract(names: readonly string[]): ArtifactReader {
    const picked = names.map((n) => this.byName.get(n)).filter((e): e is SectionEntry => e !== undefined);
    const sections: SectionEntry[] = [];
    let off = 0;
    for (const e of picked) {
      sections.push({ ...e, off });
      off += Math.ceil(e.len / 8) * 8;
    }
    const out = new Uint8Array(off);
    picked.forEach((e, i) => out.set(this.bytes.subarray(this.start + e.off, this.start + e.off + e.len), sections[i].off));
    return new ArtifactReader(out, { kind: this.kind, schema: this.schema, dir: { meta: this.dir.meta, sections } });
  }

  /** Number of values of a section (strings for a string table), from the directory: nothing is decoded. */
  count(name: string): number {
    return this.entry(name).n;
  }

  private entry(name: string): SectionEntry {
    const e = this.byName.get(name);
    if (!e) throw new ArtifactFormatError(`artifact section "${name}" is missing`);
    return e;
  }

  /** A deflated section's bytes as inflated (still in byte planes when it was shuffled). */
  private inflate(e: SectionEntry): Buffer {
    const stored = this.bytes.subarray(this.start + e.off, this.start + e.off + e.len);
    // one output chunk of the known size: no chunk list to concatenate
    const out = inflateRawSync(stored, { chunkSize: Math.max(MIN_INFLATE_CHUNK, e.z as number) });
    if (out.byteLength !== e.z) throw new ArtifactFormatError(`artifact section "${e.name}" is corrupt (${out.byteLength} bytes inflated, ${e.z} expected)`);
    return out;
  }

  /** A section shuffled into byte planes: its planes (decoders assemble values from them directly). */
  private planes(name: string): { e: SectionEntry; planes: Uint8Array; w: number } | null {
    const e = this.entry(name);
    return e.z !== undefined && e.w ? { e, planes: this.inflate(e), w: e.w } : null;
  }

  private section(name: string): { e: SectionEntry; b: Uint8Array } {
    const e = this.entry(name);
    if (e.z === undefined) return { e, b: this.bytes.subarray(this.start + e.off, this.start + e.off + e.len) };
    // inflated on each read (readers read a section once): nothing inflated stays with the reader
    const out = this.inflate(e);
    // a buffer of its own at offset 0 (Node may hand out a slice of a shared pool): typed arrays view it in place
    let b: Uint8Array;
    if (e.w) b = unshuffle(out, e.w);
    else b = out.byteOffset === 0 && out.buffer.byteLength === out.byteLength ? new Uint8Array(out.buffer, 0, out.byteLength) : new Uint8Array(out);
    return { e, b };
  }

  /** The bytes of a section (inflated if stored deflated), for callers that decode lazily, e.g. varint postings. */
  bytesOf(name: string): Uint8Array {
    return this.section(name).b;
  }

  /** A raw typed-array section: in place when aligned, else one copy. */
  raw<T extends RawArray>(name: string): T {
    const { e, b } = this.section(name);
    const C = CTORS[e.enc as RawKind];
    if (!C) throw new ArtifactFormatError(`section "${name}" is ${e.enc}, not a raw array`);
    const src = b.byteOffset % C.BYTES_PER_ELEMENT === 0 ? b : b.slice();
    return new C(src.buffer as ArrayBuffer, src.byteOffset, e.n) as T;
  }

  /** Any integer section (raw, varint, delta, zig-zag) as an Int32Array. */
  int32(name: string): Int32Array {
    const enc = this.entry(name).enc;
    const shuffled = enc === 'uint' || enc === 'udelta' ? this.planes(name) : null;
    if (shuffled) {
      const out = valuesFromPlanes(shuffled.planes, shuffled.w, shuffled.e.n);
      if (shuffled.e.enc === 'udelta') for (let i = 1; i < out.length; i++) out[i] += out[i - 1];
      return out;
    }
    const { e, b } = this.section(name);
    if (e.enc === 'uint' || e.enc === 'udelta') {
      const width = (e.p as number[])[0];
      const C = width === 1 ? Uint8Array : width === 2 ? Uint16Array : Uint32Array;
      const src = b.byteOffset % width === 0 ? b : b.slice();
      const values = new C(src.buffer as ArrayBuffer, src.byteOffset, e.n);
      if (e.enc === 'uint') return new Int32Array(values);
      // the differences summed while widened (one pass; int32 arithmetic, as summing the widened values)
      const out = new Int32Array(e.n);
      let acc = 0;
      for (let i = 0; i < out.length; i++) out[i] = acc = (acc + values[i]) | 0;
      return out;
    }

    const a = this.raw<RawArray>(name);
    return a instanceof Int32Array ? a : Int32Array.from(a);
  }

  /**
   * A float section (raw, 16-bit quantized or integer) as a Float32Array. `columns`: a quantized section written
   * column after column (`quantizedColumns`) comes back interleaved, as the caller had it.
   */
  float32(name: string, columns = 1): Float32Array {
    const e = this.entry(name);
    if (columns !== 1 && e.enc !== 'q16') throw new ArtifactFormatError(`section "${name}" is ${e.enc}, not quantized columns`);
    if (e.enc === 'q16') {
      const [lo, step] = e.p as [number, number];
      // one table of the 2^16 codes, then a gather (the same float32 values as decoding each code)
      const table = new Float32Array(Q16_LEVELS + 1 + Q16_SPECIAL.length);
      for (let c = 0; c <= Q16_LEVELS; c++) table[c] = lo + c * step;
      Q16_SPECIAL.forEach((v, i) => (table[Q16_LEVELS + 1 + i] = v));
      const shuffled = this.planes(name);
      if (shuffled) return q16FromPlanes(shuffled.planes, e.n, table, columns);
      const { b } = this.section(name);
      return q16FromCodes(b.byteOffset % 2 === 0 ? new Uint16Array(b.buffer, b.byteOffset, e.n) : new Uint16Array(b.slice().buffer, 0, e.n), table, columns);
    }
    if (e.enc === 'uint' || e.enc === 'udelta') return new Float32Array(this.int32(name));
    const a = this.raw<RawArray>(name);
    return a instanceof Float32Array ? a : Float32Array.from(a);
  }

  /** A sorted-keys section (or a raw f64 one) as a Float64Array. */
  float64(name: string): Float64Array {
    const { e, b } = this.section(name);
    if (e.enc !== 'f64delta') return Float64Array.from(this.raw<RawArray>(name));
    const out = new Float64Array(e.n);
    let p = 0;
    let acc = 0;
    for (let i = 0; i < e.n; i++) {
      let x = b[p++];
      let v = x & 127;
      let mul = 128;
      while (x >= 128) {
        x = b[p++];
        v += (x & 127) * mul;
        mul *= 128;
      }
      out[i] = acc += v;
    }
    return out;
  }

  /**
   * A `uints` section as stored (inflated when deflated, still in byte planes when it was stored so): for callers that
   * read a few values where they are instead of widening every value (`planes`: byte k of value i at k·n + i, else
   * little-endian values of `width` bytes one after the other). Null for a section of another encoding.
   */
  uintBytes(name: string): { bytes: Uint8Array; width: number; planes: boolean; n: number } | null {
    const e = this.entry(name);
    if (e.enc !== 'uint') return null;
    const width = (e.p as number[])[0];
    const shuffled = this.planes(name);
    if (shuffled) return { bytes: shuffled.planes, width, planes: width > 1, n: e.n };
    return { bytes: this.section(name).b, width, planes: false, n: e.n };
  }

  /**
   * Sorted keys written with `sortedKeyBlocks`: their varint differences (inflated when stored deflated), the byte
   * offset of every block's first difference and every block's first key; null when written without the blocks.
   */
  sortedKeyBlocks(name: string): { n: number; bytes: Uint8Array; at: Int32Array; heads: Float64Array } | null {
    if (!this.has(`${name}At`) || !this.has(`${name}Head`)) return null;
    const e = this.entry(name);
    if (e.enc !== 'f64delta') throw new ArtifactFormatError(`section "${name}" is ${e.enc}, not sorted keys`);
    const at = this.int32(`${name}At`);
    const heads = this.float64(`${name}Head`);
    const bytes = this.bytesOf(name);
    if (at.length !== heads.length || (at.length > 0 && at[at.length - 1] >= bytes.length))
      throw new ArtifactFormatError(`sorted key blocks of "${name}" are corrupt`);
    return { n: e.n, bytes, at, heads };
  }

  /**
   * Every string of a string table at once, as `strings(name).toArray()` gives them, without the table's per-string
   * offsets and cache (a vocabulary read whole at load).
   */
  stringArray(name: string): string[] {
    const { e, b } = this.section(name);
    if (e.enc !== 'str') throw new ArtifactFormatError(`section "${name}" is ${e.enc}, not strings`);
    const lensBytes = (e.p as number[])[0];
    const blob = b.subarray(lensBytes);
    const all = UTF8_KEEP_BOM.decode(blob);
    const out = new Array<string>(e.n);
    // the lengths' varints, and the UTF-16 length of the text before each string (one unit per UTF-8 lead byte, two
    // for a 4-byte sequence)
    let p = 0;
    let at = 0;
    let unit = 0;
    for (let i = 0; i < out.length; i++) {
      let x = b[p++];
      let len = x & 127;
      for (let shift = 7; x >= 128; shift += 7) {
        x = b[p++];
        len |= (x & 127) << shift;
      }
      const from = unit;
      for (const end = at + len; at < end; at++) {
        const c = blob[at];
        if ((c & 0xc0) !== 0x80) unit += c >= 0xf0 ? 2 : 1;
      }
      const s = all.slice(from, unit);
      // a string decoded alone loses a leading byte-order mark (as `StringTable.get` does)
      out[i] = s.charCodeAt(0) === BYTE_ORDER_MARK ? s.slice(1) : s;
    }
    if (p !== lensBytes || at !== blob.length) throw new ArtifactFormatError(`string table "${name}" is corrupt`);
    return out;
  }

  strings(name: string): StringTable {
    const { e, b } = this.section(name);
    if (e.enc !== 'str') throw new ArtifactFormatError(`section "${name}" is ${e.enc}, not strings`);
    const lensBytes = (e.p as number[])[0];
    return new StringTable(b.subarray(lensBytes), decodeVarints(b.subarray(0, lensBytes), e.n));
  }
}

/** The bytes are not an artifact this engine can read (wrong kind, older or newer container). */
export class ArtifactFormatError extends Error {
  override name = 'ArtifactFormatError';
}
