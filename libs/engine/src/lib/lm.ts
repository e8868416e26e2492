/**
 * Word trigram language model with interpolated Kneser-Ney smoothing (fixed discount per order).
 * Words are integer ids of a vocabulary where 0 = <unk>, 1 = <s>, 2 = </s>.
 */
import type { ArtifactReader, ArtifactWriter } from './artifact-codec';
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
  c3k: Float64Array; // trigram keys, sorted
  c3v: Float32Array;
  x3k: Float64Array; // context (u,v): sum count, distinct followers
  x3s: Float32Array;
  x3n: Float32Array;
  b2k: Float64Array; // bigram continuation N1+(· v w)
  b2v: Float32Array;
  x2k: Float64Array; // context v: Σ_w N1+(· v w), N1+(v ·)
  x2s: Float32Array;
  x2n: Float32Array;
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

/** First index of `keys` (ascending) in [lo, hi) whose key is ≥ k. */
function lowerBound(keys: Float64Array, k: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of `k` in ascending `keys` within [lo, hi), or -1. */
function indexIn(keys: Float64Array, k: number, lo: number, hi: number): number {
  const i = lowerBound(keys, k, lo, hi);
  return i < hi && keys[i] === k ? i : -1;
}

/**
 * Per context (a trigram's u v, or a bigram's v): its row in the context table and the range of the following
 * table's keys (sorted ascending) that continue it, `ctx * V` to `ctx * V + V - 1` — so a lookup of (ctx, w) searches
 * only that range. Direct-mapped on typed arrays, filled on first use of a context.
 */
class ContextRanges {
  private readonly keys = new Float64Array(CONTEXT_SLOTS).fill(EMPTY_KEY);
  /** row of the context in its table, or -1 */
  readonly row = new Int32Array(CONTEXT_SLOTS);
  /** the continuations' range [lo, hi) in the following table */
  readonly lo = new Int32Array(CONTEXT_SLOTS);
  readonly hi = new Int32Array(CONTEXT_SLOTS);

  /** The slot of context `ctx` (hash `h`), filled from the context keys and the following table's keys. */
  find(h: number, ctx: number, ctxKeys: Float64Array, next: Float64Array, V: number): number {
    const slot = h & (CONTEXT_SLOTS - 1);
    if (this.keys[slot] === ctx) return slot;
    const x = indexIn(ctxKeys, ctx, 0, ctxKeys.length);
    this.row[slot] = x;
    if (x >= 0) {
      const lo = lowerBound(next, ctx * V, 0, next.length);
      this.lo[slot] = lo;
      this.hi[slot] = lowerBound(next, (ctx + 1) * V, lo, next.length);
    }
    this.keys[slot] = ctx;
    return slot;
  }
}

/** 32-bit mix of a hash (the avalanche of MurmurHash3's finalizer, shortened). */
function mix(h: number): number {
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
    return (this.maxSlots + LM_RECENT_SLOTS) * LM_CACHE_SLOT_BYTES;
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
    return (LogProbCache.slotsFor(s.c3 + s.b2) + LM_RECENT_SLOTS) * LM_CACHE_SLOT_BYTES + 2 * CONTEXT_SLOTS * CONTEXT_SLOT_BYTES;
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
    return s.uni * F32 + s.c3 * (F64 + F32) + s.x3 * (F64 + 2 * F32) + s.b2 * (F64 + F32) + s.x2 * (F64 + 2 * F32);
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
    const [c3k, c3v] = pack(c3);
    const [x3k, x3sv] = pack(x3s);
    const x3nv = new Float32Array(x3k.length);
    for (let i = 0; i < x3k.length; i++) x3nv[i] = x3n.get(x3k[i])!;
    const [b2k, b2v] = pack(b2);
    const [x2k, x2sv] = pack(x2s);
    const x2nv = new Float32Array(x2k.length);
    for (let i = 0; i < x2k.length; i++) x2nv[i] = x2n.get(x2k[i])!;
    sortByKey(c3k, c3v);
    sortByKey(x3k, x3sv, x3nv);
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
      c3k,
      c3v,
      x3k,
      x3s: x3sv,
      x3n: x3nv,
      b2k,
      b2v,
      x2k,
      x2s: x2sv,
      x2n: x2nv,
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
    const s = x < 0 ? 0 : d.x2s[x];
    if (!s) return this.p1(w);
    const b = indexIn(d.b2k, v * d.V + w, bi.lo[at], bi.hi[at]);
    const c = b < 0 ? 0 : d.b2v[b];
    return Math.max(c - d.d2, 0) / s + ((d.d2 * d.x2n[x]) / s) * this.p1(w);
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
    const s = x < 0 ? 0 : d.x3s[x];
    let p: number;
    if (!s) p = this.p2(v, w);
    else {
      const t = indexIn(d.c3k, ctx * d.V + w, tri.lo[at], tri.hi[at]);
      const c = t < 0 ? 0 : d.c3v[t];
      p = Math.max(c - d.d3, 0) / s + ((d.d3 * d.x3n[x]) / s) * this.p2(v, w);
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

  /** Writes the model into an artifact: sorted keys as varint differences, counts as varints. */
  write(w: ArtifactWriter, prefix: string): void {
    const d = this.data;
    w.meta(prefix, { V: d.V, d1: d.d1, d2: d.d2, d3: d.d3, uniTotal: d.uniTotal, uniTypes: d.uniTypes });
    w.uints(`${prefix}uniCont`, d.uniCont);
    for (const k of LM_KEYS) w.sortedKeys(`${prefix}${k}`, d[k]);
    for (const c of LM_COLUMNS) w.uints(`${prefix}${c}`, d[c]);
  }

  /** A model of an artifact decoded on first use: `r` reads its sections (best a copy of only those, see `sections`). */
  static stored(r: ArtifactReader, prefix: string): KnLm {
    const n = (k: string): number => r.count(`${prefix}${k}`);
    return new KnLm({ sizes: { uni: n('uniCont'), c3: n('c3k'), x3: n('x3k'), b2: n('b2k'), x2: n('x2k') }, load: () => KnLm.read(r, prefix).data });
  }

  /** The artifact sections of a model written with `prefix`. */
  static sections(prefix: string): string[] {
    return ['uniCont', ...LM_KEYS, ...LM_COLUMNS].map((x) => `${prefix}${x}`);
  }

  static read(r: ArtifactReader, prefix: string): KnLm {
    const h = r.meta<Pick<KnLmData, 'V' | 'd1' | 'd2' | 'd3' | 'uniTotal' | 'uniTypes'>>(prefix);
    const keys = Object.fromEntries(LM_KEYS.map((k) => [k, r.float64(`${prefix}${k}`)])) as Record<(typeof LM_KEYS)[number], Float64Array>;
    const cols = Object.fromEntries(LM_COLUMNS.map((c) => [c, r.float32(`${prefix}${c}`)])) as Record<(typeof LM_COLUMNS)[number], Float32Array>;
    return new KnLm({ ...h, uniCont: r.float32(`${prefix}uniCont`), ...keys, ...cols });
  }

  /** Models stored before keys were sorted (legacy artifacts): sorts them once. */
  static fromLegacyArrays(prefix: string, header: Record<string, number>, a: Record<string, LegacyTypedArray>): KnLm {
    const copy = (n: string): Float32Array => Float32Array.from(a[`${prefix}${n}`]);
    const k = (n: string): Float64Array => Float64Array.from(a[`${prefix}${n}`]);
    const data: KnLmData = {
      V: header.V,
      d1: header.d1,
      d2: header.d2,
      d3: header.d3,
      uniTotal: header.uniTotal,
      uniTypes: header.uniTypes,
      uniCont: copy('uniCont'),
      c3k: k('c3k'),
      c3v: copy('c3v'),
      x3k: k('x3k'),
      x3s: copy('x3s'),
      x3n: copy('x3n'),
      b2k: k('b2k'),
      b2v: copy('b2v'),
      x2k: k('x2k'),
      x2s: copy('x2s'),
      x2n: copy('x2n'),
    };
    sortByKey(data.c3k, data.c3v);
    sortByKey(data.x3k, data.x3s, data.x3n);
    sortByKey(data.b2k, data.b2v);
    sortByKey(data.x2k, data.x2s, data.x2n);
    return new KnLm(data);
  }
}
