/**
 * Word trigram language model with interpolated Kneser-Ney smoothing (fixed discount per order).
 * Words are integer ids of a vocabulary where 0 = <unk>, 1 = <s>, 2 = </s>.
 */
import type { TypedArray } from './binary';

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

function toMap(k: Float64Array, v: Float32Array): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < k.length; i++) m.set(k[i], v[i]);
  return m;
}

export class KnLm {
  private c3: Map<number, number>;
  private x3s: Map<number, number>;
  private x3n: Map<number, number>;
  private b2: Map<number, number>;
  private x2s: Map<number, number>;
  private x2n: Map<number, number>;
  private cache = new Map<number, number>();

  constructor(readonly data: KnLmData) {
    this.c3 = toMap(data.c3k, data.c3v);
    this.x3s = toMap(data.x3k, data.x3s);
    this.x3n = toMap(data.x3k, data.x3n);
    this.b2 = toMap(data.b2k, data.b2v);
    this.x2s = toMap(data.x2k, data.x2s);
    this.x2n = toMap(data.x2k, data.x2n);
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
    const disc = (a: number, b: number): number => (a > 0 ? Math.min(0.95, Math.max(0.3, a / (a + 2 * b))) : 0.75);
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
    return new KnLm({
      V,
      d1: 0.75,
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
    const s = this.x2s.get(v);
    if (!s) return this.p1(w);
    const c = this.b2.get(v * d.V + w) ?? 0;
    return Math.max(c - d.d2, 0) / s + ((d.d2 * this.x2n.get(v)!) / s) * this.p1(w);
  }

  /** ln p(w | u v) */
  logProb(u: number, v: number, w: number): number {
    const d = this.data;
    const ck = (u * d.V + v) * d.V + w;
    const hit = this.cache.get(ck);
    if (hit !== undefined) return hit;
    const ctx = u * d.V + v;
    const s = this.x3s.get(ctx);
    let p: number;
    if (!s) p = this.p2(v, w);
    else {
      const c = this.c3.get(ctx * d.V + w) ?? 0;
      p = Math.max(c - d.d3, 0) / s + ((d.d3 * this.x3n.get(ctx)!) / s) * this.p2(v, w);
    }
    const lp = Math.log(Math.max(p, 1e-30));
    if (this.cache.size > 200000) this.cache.clear();
    this.cache.set(ck, lp);
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

  toArrays(prefix: string): { header: Record<string, number>; arrays: Record<string, TypedArray> } {
    const d = this.data;
    return {
      header: { V: d.V, d1: d.d1, d2: d.d2, d3: d.d3, uniTotal: d.uniTotal, uniTypes: d.uniTypes },
      arrays: {
        [`${prefix}uniCont`]: d.uniCont,
        [`${prefix}c3k`]: d.c3k,
        [`${prefix}c3v`]: d.c3v,
        [`${prefix}x3k`]: d.x3k,
        [`${prefix}x3s`]: d.x3s,
        [`${prefix}x3n`]: d.x3n,
        [`${prefix}b2k`]: d.b2k,
        [`${prefix}b2v`]: d.b2v,
        [`${prefix}x2k`]: d.x2k,
        [`${prefix}x2s`]: d.x2s,
        [`${prefix}x2n`]: d.x2n,
      },
    };
  }

  static fromArrays(prefix: string, header: Record<string, number>, a: Record<string, TypedArray>): KnLm {
    return new KnLm({
      V: header.V,
      d1: header.d1,
      d2: header.d2,
      d3: header.d3,
      uniTotal: header.uniTotal,
      uniTypes: header.uniTypes,
      uniCont: a[`${prefix}uniCont`] as Float32Array,
      c3k: a[`${prefix}c3k`] as Float64Array,
      c3v: a[`${prefix}c3v`] as Float32Array,
      x3k: a[`${prefix}x3k`] as Float64Array,
      x3s: a[`${prefix}x3s`] as Float32Array,
      x3n: a[`${prefix}x3n`] as Float32Array,
      b2k: a[`${prefix}b2k`] as Float64Array,
      b2v: a[`${prefix}b2v`] as Float32Array,
      x2k: a[`${prefix}x2k`] as Float64Array,
      x2s: a[`${prefix}x2s`] as Float32Array,
      x2n: a[`${prefix}x2n`] as Float32Array,
    });
  }
}
