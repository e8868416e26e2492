/**
 * Word trigram language model with interpolated Kneser-Ney smoothing (fixed discount per order).
 * Words are integer ids of a vocabulary where 0 = <unk>, 1 = <s>, 2 = </s>.
 */
import { ArtifactFormatError, type ArtifactReader, type ArtifactWriter } from './artifact-codec';
import type { LegacyTypedArray } from './legacy-binary';

export const UNK = 0;
export const BOS = 1;
export const EOS = 2;

export interface KnLmData {
  V: number;
  d1: number;
  d2: number;
  d3: number;
  uniCont: Float32Array; // N1+(· w)
  uniTotal: number; // N1+(· ·)
  uniTypes: number;
  c3k: SortedKeys; // trigram keys, sorted
  c3v: CountColumn;
  x3k: SortedKeys; // context (u,v): sum count, distinct followers
  x3s: CountColumn;
  x3n: CountColumn;
  /** per context: its followers seen once, not stored (their share goes to the bigram estimate); null: all stored */
  x3p: CountColumn | null;
  b2k: SortedKeys; // bigram continuation N1+(· v w)
  b2v: CountColumn;
  x2k: SortedKeys; // context v: Σ_w N1+(· v w), N1+(v ·)
  x2s: CountColumn;
  x2n: CountColumn;
}

/** Sorts keys ascending, permuting the value columns alongside. */
function sortByKey(keys: Float64Array, ...cols: Float32Array[]): void {
  const order = Array.from(keys.keys()).sort((a, b) => keys[a] - keys[b]);
  const k = Float64Array.from(order, (i) => keys[i]);
  keys.set(k);
  for (const c of cols) c.set(Float32Array.from(order, (i) => c[i]));
}

/** Kneser-Ney discounts D = n1 / (n1 + 2 n2) from the counts of counts, kept within [DISCOUNT_MIN, DISCOUNT_MAX];
 *  DISCOUNT_DEFAULT for the unigram level and when there are no singletons. */
const DISCOUNT_MIN = 0.3;
const DISCOUNT_MAX = 0.95;
const DISCOUNT_DEFAULT = 0.75;
/**
 * Trigrams seen fewer times than this are not stored: their context's bigram estimate stands for them (with their
 * counts, so each context's distribution stays proper; `x3p` counts them, each worth 1 - d3: the rule is for trigrams
 * seen once). 2: bench:quality 0.0003 / 0.0001 chrF below storing every trigram, aym's artifact 0.84 MB of 7.0 smaller.
 * 3 (measured 2026-12-06, first 200 dev × 8): margins 0.1239 / 0.1177 → 0.1239 / 0.1180 and gn's agent 10 % smaller,
 * but `x3p` gives each left-out follower the mass of one seen once, so the twice-seen would leave their contexts'
 * distributions short: not kept without a stored count of those followers.
 */
const LM_TRIGRAM_MIN_COUNT = 2;
/** Slots of the log-probability cache at most (a power of two), and at least (small models). */
const LM_CACHE_MAX_SLOTS = 1 << 19;
const LM_CACHE_MIN_SLOTS = 1 << 10;
/** Slots of the first table of an LM's cache (64 KB), and how much larger each next one is. */
const LM_CACHE_START_SLOTS = 1 << 12;
const LM_CACHE_GROWTH = 4;
/** The table grows once it stored this share of its slots (a 4-way bucket starts to overflow beyond). */
const LM_CACHE_GROW_AT = 0.5;
/** A slot of the cache: its key and its value, one Float64 each. */
const LM_CACHE_SLOT_BYTES = 16;
/** Slots of a bucket of the cache (4 × 16 bytes: one cache line of the CPU). */
const LM_CACHE_WAYS = 4;
/** Slots of the small table of recent trigrams (2^LM_RECENT_BITS; 64 KB: a sentence's trigrams, in the CPU's cache). */
const LM_RECENT_BITS = 12;
const LM_RECENT_SLOTS = 1 << LM_RECENT_BITS;
/** Odd multipliers mixing the three word ids of a trigram into a slot (32-bit multiplicative hashing). */
const HASH_U = 0x9e3779b1;
const HASH_V = 0x85ebca77;
const HASH_W = 0xc2b2ae3d;
const HASH_MIX = 0x27d4eb2f;
/** A key no context has (keys are ≥ 0). */
const EMPTY_KEY = -1;
/** Slots of a context-range cache (contexts met while decoding a few sentences), and the bytes of one slot. */
const CONTEXT_SLOTS = 1 << 12;
const CONTEXT_SLOT_BYTES = 20;

/** Keys per block of sorted keys: a stored model decodes its keys a block at a time, when a search first reaches it. */
export const KEY_BLOCK = 512;

/**
 * Sorted keys (ascending) searched in two steps: the first key of each block of KEY_BLOCK (`heads`), then the block.
 * A stored model's keys are varint differences decoded a block at a time the first time a search enters the block (the
 * first key of every block is stored as is), so a cold first translation decodes (and allocates) only the blocks its
 * n-grams are in: a tenth to a fifth of them on gn.
 */
export class SortedKeys {
  /** per block: its keys, once decoded */
  private readonly blocks: (Float64Array | undefined)[];
  private undecoded: number;

  private constructor(
    readonly length: number,
    private readonly heads: Float64Array,
    /** the varint differences and the byte offset of each block's first one (null once every block is decoded) */
    private stored: { bytes: Uint8Array; at: Int32Array } | null,
    whole: Float64Array | null,
  ) {
    this.blocks = new Array<Float64Array | undefined>(heads.length);
    this.undecoded = whole ? 0 : heads.length;
    if (whole) for (let b = 0; b < heads.length; b++) this.blocks[b] = whole.subarray(b * KEY_BLOCK, (b + 1) * KEY_BLOCK);
  }

  /** Keys held whole (learned, or stored without blocks). */
  static whole(values: Float64Array): SortedKeys {
    const heads = new Float64Array(Math.ceil(values.length / KEY_BLOCK));
    for (let b = 0; b < heads.length; b++) heads[b] = values[b * KEY_BLOCK];
    return new SortedKeys(values.length, heads, null, values);
  }

  /** Keys of an artifact: `sortedKeyBlocks` of the reader (written with KEY_BLOCK keys per block), or whole. */
  static read(r: ArtifactReader, name: string, block: number | undefined): SortedKeys {
    const stored = block === KEY_BLOCK ? r.sortedKeyBlocks(name) : null;
    if (!stored) return SortedKeys.whole(r.float64(name));
    if (stored.heads.length !== Math.ceil(stored.n / KEY_BLOCK)) throw new ArtifactFormatError(`sorted key blocks of "${name}" are corrupt`);
    return new SortedKeys(stored.n, stored.heads, { bytes: stored.bytes, at: stored.at }, null);
  }

  /** Every key (each block decoded), in one array. */
  all(): Float64Array {
    const out = new Float64Array(this.length);
    for (let b = 0; b < this.heads.length; b++) out.set(this.block(b), b * KEY_BLOCK);
    return out;
  }

  /** Bytes held: the decoded blocks, the heads, and the stored differences while blocks are left to decode. */
  get byteSize(): number {
    let b = this.heads.byteLength + (this.stored ? this.stored.bytes.byteLength + this.stored.at.byteLength : 0);
    for (const x of this.blocks) if (x) b += x.byteLength;
    return b;
  }

  /** The keys of block b (decoded on first use). */
  private block(b: number): Float64Array {
    const hit = this.blocks[b];
    if (hit) return hit;
    const { bytes, at } = this.stored as { bytes: Uint8Array; at: Int32Array };
    const out = new Float64Array(Math.min(KEY_BLOCK, this.length - b * KEY_BLOCK));
    let p = at[b];
    // the first difference of the block: skipped (its key is the block's head)
    while (bytes[p++] >= 128);
    let acc = this.heads[b];
    out[0] = acc;
    for (let i = 1; i < out.length; i++) {
      let x = bytes[p++];
      let v = x & 127;
      let mul = 128;
      while (x >= 128) {
        x = bytes[p++];
        v += (x & 127) * mul;
        mul *= 128;
      }
      out[i] = acc += v;
    }
    if (b + 1 < this.heads.length && acc > this.heads[b + 1]) throw new ArtifactFormatError('sorted keys are corrupt (a block passes the next one)');
    this.blocks[b] = out;
    if (--this.undecoded === 0) this.stored = null;
    return out;
  }

  /** First index in [lo, hi) whose key is ≥ k (hi if none). */
  lowerBound(k: number, lo: number, hi: number): number {
    if (lo >= hi) return lo;
    const heads = this.heads;
    // the block the answer is in: the last of the range whose first key is below k (the answer is its end or within)
    let bl = (lo / KEY_BLOCK) | 0;
    let bh = ((hi - 1) / KEY_BLOCK) | 0;
    while (bl < bh) {
      const mid = (bl + bh + 1) >>> 1;
      if (heads[mid] < k) bl = mid;
      else bh = mid - 1;
    }
    const keys = this.block(bl);
    const base = bl * KEY_BLOCK;
    let a = Math.max(lo, base) - base;
    let z = Math.min(hi, base + keys.length) - base;
    while (a < z) {
      const mid = (a + z) >>> 1;
      if (keys[mid] < k) a = mid + 1;
      else z = mid;
    }
    return base + a;
  }

  /** Index of `k` within [lo, hi), or -1. */
  indexIn(k: number, lo: number, hi: number): number {
    const i = this.lowerBound(k, lo, hi);
    if (i >= hi) return -1;
    // the answer is in a decoded block, or is the first key of the next block (known before it is decoded)
    const b = (i / KEY_BLOCK) | 0;
    const keys = this.blocks[b];
    return (keys ? keys[i - b * KEY_BLOCK] : this.heads[b]) === k ? i : -1;
  }
}

/** Largest integer a float32 holds exactly: a stored count above it is rounded as a float32 column would hold it. */
const F32_EXACT_INT = 1 << 24;

/**
 * A column of counts: floats (learned), or the narrow integers of an artifact read where they are stored (1, 2 or 4
 * bytes per value, maybe in byte planes): a cold model reads the few counts its n-grams need instead of widening
 * every one. Values are those of a float32 column.
 */
export class CountColumn {
  private constructor(
    private readonly floats: Float32Array | null,
    private readonly bytes: Uint8Array,
    private readonly width: number,
    private readonly planes: boolean,
    readonly length: number,
  ) {}

  static of(values: Float32Array): CountColumn {
    return new CountColumn(values, new Uint8Array(0), 0, false, values.length);
  }

  /** A column of an artifact: its stored integers, or (another encoding) its values as floats. */
  static read(r: ArtifactReader, name: string): CountColumn {
    const s = r.uintBytes(name);
    if (!s || (s.width !== 1 && s.width !== 2 && s.width !== 4) || s.bytes.length !== s.n * s.width) return CountColumn.of(r.float32(name));
    return new CountColumn(null, s.bytes, s.width, s.planes, s.n);
  }

  get(i: number): number {
    const f = this.floats;
    if (f !== null) return f[i];
    const b = this.bytes;
    if (this.width === 1) return b[i];
    const n = this.length;
    if (this.width === 2) return this.planes ? b[i] | (b[n + i] << 8) : b[2 * i] | (b[2 * i + 1] << 8);
    const v =
      (this.planes
        ? b[i] | (b[n + i] << 8) | (b[2 * n + i] << 16) | (b[3 * n + i] << 24)
        : b[4 * i] | (b[4 * i + 1] << 8) | (b[4 * i + 2] << 16) | (b[4 * i + 3] << 24)) >>> 0;
    return v < F32_EXACT_INT ? v : Math.fround(v);
  }

  /** Every value, as floats. */
  all(): Float32Array {
    if (this.floats) return this.floats;
    const out = new Float32Array(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.get(i);
    return out;
  }

  get byteSize(): number {
    return this.floats ? this.floats.byteLength : this.bytes.byteLength;
  }
}

/**
 * Per context (a trigram's u v, or a bigram's v): its row in the context table and the range of the following
 * table's keys (sorted ascending) that continue it, `ctx * V` to `ctx * V + V - 1` — so a lookup of (ctx, w) searches
 * only that range. Direct-mapped on typed arrays, filled on first use of a context.
 */
export class ContextRanges {
  /** Bytes one cache holds. */
  static readonly byteSize = CONTEXT_SLOTS * CONTEXT_SLOT_BYTES;
  private readonly keys = new Float64Array(CONTEXT_SLOTS).fill(EMPTY_KEY);
  /** row of the context in its table, or -1 */
  readonly row = new Int32Array(CONTEXT_SLOTS);
  /** the continuations' range [lo, hi) in the following table */
  readonly lo = new Int32Array(CONTEXT_SLOTS);
  readonly hi = new Int32Array(CONTEXT_SLOTS);

  /** The slot of context `ctx` (hash `h`), filled from the context keys and the following table's keys. */
  find(h: number, ctx: number, ctxKeys: SortedKeys, next: SortedKeys, V: number): number {
    const slot = h & (CONTEXT_SLOTS - 1);
    if (this.keys[slot] === ctx) return slot;
    const x = ctxKeys.indexIn(ctx, 0, ctxKeys.length);
    this.row[slot] = x;
    if (x >= 0) {
      const lo = next.lowerBound(ctx * V, 0, next.length);
      this.lo[slot] = lo;
      this.hi[slot] = next.lowerBound((ctx + 1) * V, lo, next.length);
    }
    this.keys[slot] = ctx;
    return slot;
  }
}

/** 32-bit mix of a hash (the avalanche of MurmurHash3's finalizer, shortened). */
export function mix(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, HASH_MIX);
  return h ^ (h >>> 13);
}

/**
 * ln p(w | u v) memoized in typed arrays (lookups allocate nothing, unlike a Map of number keys beyond 2^31, every
 * entry boxed): a small direct-mapped table for the trigrams of the sentence at hand (the decoder asks for each a few
 * times), in front of a table of buckets of LM_CACHE_WAYS slots holding the trigrams of many sentences (a full bucket
 * forgets its oldest). That table starts small and grows fourfold (its trigrams moved over) each time it stored half as
 * many trigrams as it has slots, up to `maxSlots`: an agent that translates little holds little. A slot holds a trigram key + 1
 * (0: empty, so new tables need no filling) and its value side by side. A cached value is the computed value itself,
 * so answers do not depend on what is cached.
 */
export class LogProbCache {
  /** slot i: key + 1 at 2i, value at 2i + 1 */
  private recent: Float64Array | null = null;
  private table: Float64Array | null = null;
  private slots = 0;
  private bucketMask = 0;
  /** trigrams stored since the table was last allocated */
  private stored = 0;

  /** `maxSlots`: a power of two, at least LM_CACHE_WAYS; `V`: the vocabulary size of the keys ((u V + v) V + w). */
  constructor(
    readonly maxSlots: number,
    private readonly V: number,
  ) {
    if (maxSlots < LM_CACHE_WAYS || (maxSlots & (maxSlots - 1)) !== 0)
      throw new Error(`LogProbCache: ${maxSlots} slots is not a power of two ≥ ${LM_CACHE_WAYS}`);
  }

  /** Most slots for a model with `entries` trigram and bigram keys: the next power of two, within the bounds. */
  static slotsFor(entries: number): number {
    let n = LM_CACHE_MIN_SLOTS;
    while (n < entries && n < LM_CACHE_MAX_SLOTS) n *= 2;
    return n;
  }

  /** Bytes of both tables at their largest. */
  get bytesBound(): number {
    return LogProbCache.bytesBoundOf(this.maxSlots);
  }

  /** Bytes of both tables of a cache of `maxSlots` slots at most, at their largest. */
  static bytesBoundOf(maxSlots: number): number {
    return (maxSlots + LM_RECENT_SLOTS) * LM_CACHE_SLOT_BYTES;
  }

  /** Slots of the table now (0 before the first trigram is stored). */
  get size(): number {
    return this.slots;
  }

  /** The hash of trigram (u, v, w). */
  static hash(u: number, v: number, w: number): number {
    return mix(Math.imul(u, HASH_U) ^ Math.imul(v, HASH_V) ^ Math.imul(w, HASH_W));
  }

  /** The value cached for `key` (hash `h`), or NaN. */
  get(h: number, key: number): number {
    const r = this.recent;
    if (r === null) return NaN;
    const k = key + 1;
    const s = 2 * (h & (LM_RECENT_SLOTS - 1));
    if (r[s] === k) return r[s + 1];
    const t = this.table as Float64Array;
    const b = 2 * LM_CACHE_WAYS * ((h >>> LM_RECENT_BITS) & this.bucketMask);
    for (let x = b; x < b + 2 * LM_CACHE_WAYS; x += 2)
      if (t[x] === k) {
        r[s] = k;
        r[s + 1] = t[x + 1];
        return t[x + 1];
      }
    return NaN;
  }

  set(h: number, key: number, value: number): void {
    if (this.recent === null) this.recent = new Float64Array(2 * LM_RECENT_SLOTS);
    if (this.table === null || (this.stored >= this.slots * LM_CACHE_GROW_AT && this.slots < this.maxSlots)) this.grow();
    const r = this.recent;
    const t = this.table as Float64Array;
    const k = key + 1;
    const s = 2 * (h & (LM_RECENT_SLOTS - 1));
    r[s] = k;
    r[s + 1] = value;
    // the bucket's slots from newest to oldest: the oldest is dropped, the others move one down
    const b = 2 * LM_CACHE_WAYS * ((h >>> LM_RECENT_BITS) & this.bucketMask);
    for (let x = b + 2 * (LM_CACHE_WAYS - 1); x > b; x -= 2) {
      t[x] = t[x - 2];
      t[x + 1] = t[x - 1];
    }
    t[b] = k;
    t[b + 1] = value;
    this.stored++;
  }

  /** A larger table (the first one small, then LM_CACHE_GROWTH times the last, at most maxSlots) with the trigrams of the last. */
  private grow(): void {
    const old = this.table;
    this.slots = this.slots === 0 ? Math.min(LM_CACHE_START_SLOTS, this.maxSlots) : Math.min(this.slots * LM_CACHE_GROWTH, this.maxSlots);
    this.table = new Float64Array(2 * this.slots);
    this.bucketMask = this.slots / LM_CACHE_WAYS - 1;
    this.stored = 0;
    if (old === null) return;
    const t = this.table;
    const V = this.V;
    // each bucket's slots oldest first, so they keep their order; a key is (u V + v) V + w (exact integer division)
    for (let b = 0; b < old.length; b += 2 * LM_CACHE_WAYS)
      for (let x = b + 2 * (LM_CACHE_WAYS - 1); x >= b; x -= 2) {
        const k = old[x];
        if (k === 0) continue;
        const uv = Math.floor((k - 1) / V);
        const u = Math.floor(uv / V);
        const h = LogProbCache.hash(u, uv - u * V, k - 1 - uv * V);
        const nb = 2 * LM_CACHE_WAYS * ((h >>> LM_RECENT_BITS) & this.bucketMask);
        for (let y = nb + 2 * (LM_CACHE_WAYS - 1); y > nb; y -= 2) {
          t[y] = t[y - 2];
          t[y + 1] = t[y - 1];
        }
        t[nb] = k;
        t[nb + 1] = old[x + 1];
        this.stored++;
      }
  }
}

const LM_COLUMNS = ['c3v', 'x3s', 'x3n', 'b2v', 'x2s', 'x2n'] as const;
/** Per trigram context, its followers seen once (models written before trigrams were pruned have none). */
const LM_PRUNED_COLUMN = 'x3p';
const LM_KEYS = ['c3k', 'x3k', 'b2k', 'x2k'] as const;

const F32 = 4;
const F64 = 8;

interface LmSizes {
  uni: number;
  c3: number;
  x3: number;
  b2: number;
  x2: number;
}

/** The metadata of a stored model (`keyBlock`: keys per stored block, absent before the keys were stored in blocks). */
type StoredLmMeta = Pick<KnLmData, 'V' | 'd1' | 'd2' | 'd3' | 'uniTotal' | 'uniTypes'> & { keyBlock?: number };

/** A model still in its artifact: its sizes, and how to decode it. */
interface StoredLm {
  sizes: LmSizes;
  load: () => KnLmData;
}

/** Keys of `data` are sorted ascending (each key array with its value columns); lookups are binary searches. */
export class KnLm {
  private cacheTable: LogProbCache | null = null;
  /** trigram contexts (u v) and bigram contexts (v) met lately (allocated on first use) */
  private ranges: { tri: ContextRanges; bi: ContextRanges } | null = null;
  private loaded: KnLmData | null;
  private pending: StoredLm | null;

  constructor(data: KnLmData | StoredLm) {
    if ('load' in data) {
      this.loaded = null;
      this.pending = data;
    } else {
      this.loaded = data;
      this.pending = null;
    }
  }

  /** The model's tables (a stored model is decoded on first use). */
  get data(): KnLmData {
    return this.loaded ?? this.decode();
  }

  private decode(): KnLmData {
    const data = (this.pending as StoredLm).load();
    this.loaded = data;
    this.pending = null;
    return data;
  }

  /** Entries of the trigram and bigram keys (without decoding a stored model). */
  private get sizes(): LmSizes {
    const d = this.loaded;
    return d ? { uni: d.uniCont.length, c3: d.c3k.length, x3: d.x3k.length, b2: d.b2k.length, x2: d.x2k.length } : (this.pending as StoredLm).sizes;
  }

  /** Most memory the log-probability cache takes once warm (for memory budgets). */
  get cacheBytesBound(): number {
    const s = this.sizes;
    return LogProbCache.bytesBoundOf(LogProbCache.slotsFor(s.c3 + s.b2)) + 2 * ContextRanges.byteSize;
  }

  /** The log-probability cache (sized from the model on first use). */
  private get cache(): LogProbCache {
    if (this.cacheTable === null) {
      const s = this.sizes;
      this.cacheTable = new LogProbCache(LogProbCache.slotsFor(s.c3 + s.b2), this.data.V);
    }
    return this.cacheTable;
  }

  /** Bytes of the decoded tables (as they are or will be once decoded). */
  get tableBytes(): number {
    const s = this.sizes;
    const d = this.loaded;
    // a loaded model's keys and counts as held (blocks decoded so far, counts as stored); a stored one's once decoded
    if (d) return s.uni * F32 + LM_KEYS.reduce((b, k) => b + d[k].byteSize, 0) + LM_COLUMNS.reduce((b, c) => b + d[c].byteSize, 0) + (d.x3p?.byteSize ?? 0);
    return s.uni * F32 + s.c3 * (F64 + F32) + s.x3 * (F64 + 3 * F32) + s.b2 * (F64 + F32) + s.x2 * (F64 + 2 * F32);
  }

  static train(sentences: Int32Array[], V: number): KnLm {
    if (V * V * V > Number.MAX_SAFE_INTEGER) throw new Error('KnLm: vocabulary too large for numeric keys');
    const c3 = new Map<number, number>();
    for (const s of sentences) {
      let u = BOS;
      let v = BOS;
      for (let i = 0; i <= s.length; i++) {
        const w = i < s.length ? s[i] : EOS;
        const k = (u * V + v) * V + w;
        c3.set(k, (c3.get(k) ?? 0) + 1);
        u = v;
        v = w;
      }
    }
    const x3s = new Map<number, number>();
    const x3n = new Map<number, number>();
    const b2 = new Map<number, number>();
    let n1 = 0;
    let n2 = 0;
    for (const [k, c] of c3) {
      const ctx = Math.floor(k / V);
      x3s.set(ctx, (x3s.get(ctx) ?? 0) + c);
      x3n.set(ctx, (x3n.get(ctx) ?? 0) + 1);
      const vw = k % (V * V);
      b2.set(vw, (b2.get(vw) ?? 0) + 1);
      if (c === 1) n1++;
      else if (c === 2) n2++;
    }
    const x2s = new Map<number, number>();
    const x2n = new Map<number, number>();
    const uniCont = new Float32Array(V);
    let uniTotal = 0;
    let b1 = 0;
    let b2n = 0;
    for (const [k, c] of b2) {
      const v = Math.floor(k / V);
      const w = k % V;
      x2s.set(v, (x2s.get(v) ?? 0) + c);
      x2n.set(v, (x2n.get(v) ?? 0) + 1);
      uniCont[w] += 1;
      uniTotal++;
      if (c === 1) b1++;
      else if (c === 2) b2n++;
    }
    let uniTypes = 0;
    for (let w = 0; w < V; w++) if (uniCont[w] > 0) uniTypes++;
    const disc = (a: number, b: number): number => (a > 0 ? Math.min(DISCOUNT_MAX, Math.max(DISCOUNT_MIN, a / (a + 2 * b))) : DISCOUNT_DEFAULT);
    const pack = (m: Map<number, number>): [Float64Array, Float32Array] => {
      const k = new Float64Array(m.size);
      const v = new Float32Array(m.size);
      let i = 0;
      for (const [a, b] of m) {
        k[i] = a;
        v[i++] = b;
      }
      return [k, v];
    };
    // trigrams seen once are not stored (most of a small corpus's trigrams): each gives its discounted count (1 - d3)
    // to its context's bigram estimate; a context all of whose followers were seen once is not stored either (its
    // words are the bigram estimates, a proper distribution as before)
    const pruned = new Map<number, number>();
    for (const [k, c] of c3)
      if (c < LM_TRIGRAM_MIN_COUNT) {
        c3.delete(k);
        const ctx = Math.floor(k / V);
        pruned.set(ctx, (pruned.get(ctx) ?? 0) + 1);
      }
    for (const [ctx, n] of pruned)
      if (n === x3n.get(ctx)) {
        x3s.delete(ctx);
        x3n.delete(ctx);
      }
    const [c3k, c3v] = pack(c3);
    const [x3k, x3sv] = pack(x3s);
    const x3nv = new Float32Array(x3k.length);
    const x3pv = new Float32Array(x3k.length);
    for (let i = 0; i < x3k.length; i++) {
      x3nv[i] = x3n.get(x3k[i])!;
      x3pv[i] = pruned.get(x3k[i]) ?? 0;
    }
    const [b2k, b2v] = pack(b2);
    const [x2k, x2sv] = pack(x2s);
    const x2nv = new Float32Array(x2k.length);
    for (let i = 0; i < x2k.length; i++) x2nv[i] = x2n.get(x2k[i])!;
    sortByKey(c3k, c3v);
    sortByKey(x3k, x3sv, x3nv, x3pv);
    sortByKey(b2k, b2v);
    sortByKey(x2k, x2sv, x2nv);
    return new KnLm({
      V,
      d1: DISCOUNT_DEFAULT,
      d2: disc(b1, b2n),
      d3: disc(n1, n2),
      uniCont,
      uniTotal,
      uniTypes,
      c3k: SortedKeys.whole(c3k),
      c3v: CountColumn.of(c3v),
      x3k: SortedKeys.whole(x3k),
      x3s: CountColumn.of(x3sv),
      x3n: CountColumn.of(x3nv),
      x3p: CountColumn.of(x3pv),
      b2k: SortedKeys.whole(b2k),
      b2v: CountColumn.of(b2v),
      x2k: SortedKeys.whole(x2k),
      x2s: CountColumn.of(x2sv),
      x2n: CountColumn.of(x2nv),
    });
  }

  /** p(w) — continuation unigram interpolated with a uniform distribution over the V-1 predictable ids (incl. <unk>). */
  private p1(w: number): number {
    const d = this.data;
    if (d.uniTotal === 0) return 1 / Math.max(1, d.V - 1);
    const T = d.uniTotal;
    const c = w > 0 && w < d.V ? d.uniCont[w] : 0;
    return Math.max(c - d.d1, 0) / T + ((d.d1 * d.uniTypes) / T) * (1 / Math.max(1, d.V - 1));
  }

  private p2(v: number, w: number): number {
    const d = this.data;
    const bi = (this.ranges ??= { tri: new ContextRanges(), bi: new ContextRanges() }).bi;
    const at = bi.find(mix(Math.imul(v, HASH_V)), v, d.x2k, d.b2k, d.V);
    const x = bi.row[at];
    const s = x < 0 ? 0 : d.x2s.get(x);
    if (!s) return this.p1(w);
    const b = d.b2k.indexIn(v * d.V + w, bi.lo[at], bi.hi[at]);
    const c = b < 0 ? 0 : d.b2v.get(b);
    return Math.max(c - d.d2, 0) / s + ((d.d2 * d.x2n.get(x)) / s) * this.p1(w);
  }

  /** Whether the data has word `w` right after word `v` (a stored bigram). */
  seenBigram(v: number, w: number): boolean {
    const d = this.data;
    const bi = (this.ranges ??= { tri: new ContextRanges(), bi: new ContextRanges() }).bi;
    const at = bi.find(mix(Math.imul(v, HASH_V)), v, d.x2k, d.b2k, d.V);
    if (bi.row[at] < 0) return false;
    const b = d.b2k.indexIn(v * d.V + w, bi.lo[at], bi.hi[at]);
    return b >= 0 && d.b2v.get(b) > 0;
  }

  /** ln p(w | u v) */
  logProb(u: number, v: number, w: number): number {
    const d = this.data;
    const ck = (u * d.V + v) * d.V + w;
    const cache = this.cache;
    const h = LogProbCache.hash(u, v, w);
    const hit = cache.get(h, ck);
    if (hit === hit) return hit; // not NaN: cached
    const ctx = u * d.V + v;
    const tri = (this.ranges ??= { tri: new ContextRanges(), bi: new ContextRanges() }).tri;
    const at = tri.find(mix(Math.imul(u, HASH_U) ^ Math.imul(v, HASH_V)), ctx, d.x3k, d.c3k, d.V);
    const x = tri.row[at];
    const s = x < 0 ? 0 : d.x3s.get(x);
    let p: number;
    if (!s) p = this.p2(v, w);
    else {
      const t = d.c3k.indexIn(ctx * d.V + w, tri.lo[at], tri.hi[at]);
      const c = t < 0 ? 0 : d.c3v.get(t);
      // the bigram's weight: the discounts of the stored followers and the whole counts of the pruned ones (seen once)
      const back = d.d3 * d.x3n.get(x) + (d.x3p === null ? 0 : (1 - d.d3) * d.x3p.get(x));
      p = Math.max(c - d.d3, 0) / s + (back / s) * this.p2(v, w);
    }
    const lp = Math.log(Math.max(p, 1e-30));
    cache.set(h, ck, lp);
    return lp;
  }

  /** ln p(sentence) including </s>. */
  scoreSentence(ids: ArrayLike<number>): number {
    let u = BOS;
    let v = BOS;
    let lp = 0;
    for (let i = 0; i <= ids.length; i++) {
      const w = i < ids.length ? ids[i] : EOS;
      lp += this.logProb(u, v, w);
      u = v;
      v = w;
    }
    return lp;
  }

  /**
   * Writes the model into an artifact: sorted keys as varint differences in blocks of KEY_BLOCK (`keyBlock` in its
   * metadata; each block's offset and first key stored too), counts in their narrowest width.
   */
  write(w: ArtifactWriter, prefix: string): void {
    const d = this.data;
    w.meta(prefix, { V: d.V, d1: d.d1, d2: d.d2, d3: d.d3, uniTotal: d.uniTotal, uniTypes: d.uniTypes, keyBlock: KEY_BLOCK } satisfies StoredLmMeta);
    w.uints(`${prefix}uniCont`, d.uniCont);
    for (const k of LM_KEYS) w.sortedKeyBlocks(`${prefix}${k}`, d[k].all(), KEY_BLOCK);
    for (const c of LM_COLUMNS) w.uints(`${prefix}${c}`, d[c].all());
    if (d.x3p) w.uints(`${prefix}${LM_PRUNED_COLUMN}`, d.x3p.all());
  }

  /** A model of an artifact decoded on first use: `r` reads its sections (best a copy of only those, see `sections`). */
  static stored(r: ArtifactReader, prefix: string): KnLm {
    const n = (k: string): number => r.count(`${prefix}${k}`);
    return new KnLm({ sizes: { uni: n('uniCont'), c3: n('c3k'), x3: n('x3k'), b2: n('b2k'), x2: n('x2k') }, load: () => KnLm.read(r, prefix).data });
  }

  /** The artifact sections of a model written with `prefix`. */
  static sections(prefix: string): string[] {
    return ['uniCont', ...LM_KEYS.flatMap((k) => [k, `${k}At`, `${k}Head`]), ...LM_COLUMNS, LM_PRUNED_COLUMN].map((x) => `${prefix}${x}`);
  }

  static read(r: ArtifactReader, prefix: string): KnLm {
    const { keyBlock, ...h } = r.meta<StoredLmMeta>(prefix);
    // written before the key blocks: no keyBlock, the keys are decoded whole
    const keys = Object.fromEntries(LM_KEYS.map((k) => [k, SortedKeys.read(r, `${prefix}${k}`, keyBlock)])) as Record<(typeof LM_KEYS)[number], SortedKeys>;
    const cols = Object.fromEntries(LM_COLUMNS.map((c) => [c, CountColumn.read(r, `${prefix}${c}`)])) as Record<(typeof LM_COLUMNS)[number], CountColumn>;
    const pruned = `${prefix}${LM_PRUNED_COLUMN}`;
    return new KnLm({ ...h, uniCont: r.float32(`${prefix}uniCont`), ...keys, ...cols, x3p: r.has(pruned) ? CountColumn.read(r, pruned) : null });
  }

  /** Models stored before keys were sorted (legacy artifacts): sorts them once. */
  static fromLegacyArrays(prefix: string, header: Record<string, number>, a: Record<string, LegacyTypedArray>): KnLm {
    const copy = (n: string): Float32Array => Float32Array.from(a[`${prefix}${n}`]);
    const k = (n: string): Float64Array => Float64Array.from(a[`${prefix}${n}`]);
    const [c3k, x3k, b2k, x2k] = [k('c3k'), k('x3k'), k('b2k'), k('x2k')];
    const [c3v, x3s, x3n, b2v, x2s, x2n] = [copy('c3v'), copy('x3s'), copy('x3n'), copy('b2v'), copy('x2s'), copy('x2n')];
    // sorted before the keys are blocked (the blocks' first keys are taken from the sorted keys)
    sortByKey(c3k, c3v);
    sortByKey(x3k, x3s, x3n);
    sortByKey(b2k, b2v);
    sortByKey(x2k, x2s, x2n);
    return new KnLm({
      V: header.V,
      d1: header.d1,
      d2: header.d2,
      d3: header.d3,
      uniTotal: header.uniTotal,
      uniTypes: header.uniTypes,
      uniCont: copy('uniCont'),
      c3k: SortedKeys.whole(c3k),
      c3v: CountColumn.of(c3v),
      x3k: SortedKeys.whole(x3k),
      x3s: CountColumn.of(x3s),
      x3n: CountColumn.of(x3n),
      x3p: null,
      b2k: SortedKeys.whole(b2k),
      b2v: CountColumn.of(b2v),
      x2k: SortedKeys.whole(x2k),
      x2s: CountColumn.of(x2s),
      x2n: CountColumn.of(x2n),
    });
  }
}
