/**
 * Word alignment by EM in both directions, fast_align style: IBM model 1 lexical tables with a
 * diagonal-favouring distortion prior and a NULL word, variational-Bayes updates (sparse Dirichlet
 * prior) so rare words do not become garbage collectors. Viterbi links of both directions are
 * symmetrized with grow-diag-final-and.
 */
import { ALIGN_DEFAULTS } from './tuning';

/** Open-addressing hash table from an integer pair (s, t) to an integer (no boxed keys, no GC churn). */
export class PairTable {
  private mask: number;
  private ks: Int32Array;
  private kt: Int32Array;
  private val: Int32Array;
  size = 0;

  constructor(capacity = 1 << 16) {
    let cap = 1 << 4;
    while (cap < capacity) cap <<= 1;
    this.mask = cap - 1;
    this.ks = new Int32Array(cap);
    this.kt = new Int32Array(cap);
    this.val = new Int32Array(cap).fill(-1);
  }

  private slot(s: number, t: number): number {
    let h = (Math.imul(s, 0x9e3779b1) ^ Math.imul(t + 0x7f4a7c15, 0x85ebca77)) >>> 0;
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d) >>> 0;
    let i = h & this.mask;
    while (this.val[i] !== -1 && (this.ks[i] !== s || this.kt[i] !== t)) i = (i + 1) & this.mask;
    return i;
  }

  get(s: number, t: number): number {
    return this.val[this.slot(s, t)];
  }

  set(s: number, t: number, v: number): void {
    let i = this.slot(s, t);
    if (this.val[i] === -1) {
      if ((this.size + 1) * 10 > (this.mask + 1) * 6) {
        this.rehash();
        i = this.slot(s, t);
      }
      this.size++;
      this.ks[i] = s;
      this.kt[i] = t;
    }
    this.val[i] = v;
  }

  private rehash(): void {
    const { ks, kt, val } = this;
    const cap = (this.mask + 1) * 2;
    this.mask = cap - 1;
    this.ks = new Int32Array(cap);
    this.kt = new Int32Array(cap);
    this.val = new Int32Array(cap).fill(-1);
    for (let i = 0; i < val.length; i++) {
      if (val[i] === -1) continue;
      const j = this.slot(ks[i], kt[i]);
      this.ks[j] = ks[i];
      this.kt[j] = kt[i];
      this.val[j] = val[i];
    }
  }
}

export interface AlignmentModel {
  /** parameter index of the (source word, target word) pair; word 0 = NULL */
  index: PairTable;
  /** p(t | s) for every parameter */
  tF: Float32Array;
  /** p(s | t) for every parameter */
  tR: Float32Array;
  paramS: Int32Array;
  paramT: Int32Array;
  Vt: number;
}

export interface AlignOptions {
  iterations?: number;
  lambda?: number; // diagonal tension
  pNull?: number;
  alpha?: number; // Dirichlet prior
  /** weight of the stem back-off of rare words' probabilities (stem-backoff.ts STEM_BACKOFF_WEIGHT; 0 = none) */
  stemBackoff?: number;
}

function digamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

/**
 * src[k], tgt[k]: word ids (>= 1; 0 is reserved for NULL) of sentence pair k.
 * Returns the model and, per sentence, the symmetrized alignment as flat [i, j, i, j, ...] (0-based positions).
 */
export function trainAlignment(
  src: Int32Array[],
  tgt: Int32Array[],
  Vs: number,
  Vt: number,
  opts: AlignOptions = {},
  onProgress?: (f: number) => void,
): { model: AlignmentModel; links: Int32Array[] } {
  const iters = opts.iterations ?? ALIGN_DEFAULTS.iterations;
  const lambda = opts.lambda ?? ALIGN_DEFAULTS.lambda;
  const pNull = opts.pNull ?? ALIGN_DEFAULTS.pNull;
  const alpha = opts.alpha ?? ALIGN_DEFAULTS.alpha;
  let cells = 0;
  for (let k = 0; k < src.length; k++) cells += (src[k].length + 1) * (tgt[k].length + 1);
  const index = new PairTable(Math.max(1 << 12, Math.min(Math.floor(cells / 3), 1 << 23)));
  const ps: number[] = [];
  const pt: number[] = [];
  // per sentence, a (m+1) x (n+1) matrix of parameter indexes ([0][0] unused)
  const offs = new Int32Array(src.length + 1);
  let total = 0;
  for (let k = 0; k < src.length; k++) {
    offs[k] = total;
    total += (src[k].length + 1) * (tgt[k].length + 1);
  }
  offs[src.length] = total;
  const mat = new Int32Array(total);
  for (let k = 0; k < src.length; k++) {
    const S = src[k];
    const T = tgt[k];
    const n = T.length + 1;
    let o = offs[k];
    for (let i = 0; i <= S.length; i++) {
      const s = i === 0 ? 0 : S[i - 1];
      for (let j = 0; j <= T.length; j++, o++) {
        if (i === 0 && j === 0) continue;
        const t = j === 0 ? 0 : T[j - 1];
        let p = index.get(s, t);
        if (p === -1) {
          p = ps.length;
          index.set(s, t, p);
          ps.push(s);
          pt.push(t);
        }
        mat[o] = p;
      }
    }
    void n;
  }
  const P = ps.length;
  const paramS = Int32Array.from(ps);
  const paramT = Int32Array.from(pt);
  const tF = new Float32Array(P).fill(1 / Math.max(2, Vt));
  const tR = new Float32Array(P).fill(1 / Math.max(2, Vs));
  const counts = new Float64Array(P);
  const totS = new Float64Array(Vs);
  const totT = new Float64Array(Vt);
  const w = new Float64Array(512);

  const diag = (i: number, j: number, m: number, n: number): number => Math.exp(-lambda * Math.abs(i / m - j / n));
  // the diagonal prior only depends on (inner length, outer length): computed once per shape
  const priorCache = new Map<number, Float64Array>();
  const priorTable = (inner: number, outer: number): Float64Array => {
    const key = inner * 4096 + outer;
    let t = priorCache.get(key);
    if (!t) {
      t = new Float64Array((outer + 1) * (inner + 1));
      for (let b = 1; b <= outer; b++) {
        let dz = 0;
        for (let a = 1; a <= inner; a++) dz += t[b * (inner + 1) + a] = diag(a, b, inner, outer);
        t[b * (inner + 1)] = (pNull * dz) / (1 - pNull);
      }
      priorCache.set(key, t);
    }
    return t;
  };

  for (let it = 0; it < iters; it++) {
    for (let dir = 0; dir < 2; dir++) {
      counts.fill(0);
      const table = dir === 0 ? tF : tR;
      for (let k = 0; k < src.length; k++) {
        const m = src[k].length;
        const n = tgt[k].length;
        const o = offs[k];
        const cols = n + 1;
        // dir 0: each target j picks a source i in 0..m ; dir 1: each source i picks a target j in 0..n
        const outer = dir === 0 ? n : m;
        const inner = dir === 0 ? m : n;
        if (inner + 1 > w.length) continue;
        const pt = priorTable(inner, outer);
        for (let b = 1; b <= outer; b++) {
          let z = 0;
          const po = b * (inner + 1);
          for (let a = 0; a <= inner; a++) {
            const idx = dir === 0 ? mat[o + a * cols + b] : mat[o + b * cols + a];
            const v = pt[po + a] * table[idx];
            w[a] = v;
            z += v;
          }
          if (z <= 0) continue;
          for (let a = 0; a <= inner; a++) {
            const idx = dir === 0 ? mat[o + a * cols + b] : mat[o + b * cols + a];
            counts[idx] += w[a] / z;
          }
        }
      }
      // VB M-step
      const tot = dir === 0 ? totS : totT;
      tot.fill(0);
      for (let p = 0; p < P; p++) tot[dir === 0 ? paramS[p] : paramT[p]] += counts[p];
      const Vo = dir === 0 ? Vt : Vs;
      const dgTot = new Float64Array(tot.length);
      for (let x = 0; x < tot.length; x++) dgTot[x] = digamma(tot[x] + Vo * alpha);
      for (let p = 0; p < P; p++) {
        const c = counts[p];
        table[p] = Math.exp(digamma(c + alpha) - dgTot[dir === 0 ? paramS[p] : paramT[p]]);
      }
    }
    onProgress?.((it + 1) / iters);
  }

  // Viterbi links in both directions, then grow-diag-final-and
  const links: Int32Array[] = [];
  for (let k = 0; k < src.length; k++) {
    const m = src[k].length;
    const n = tgt[k].length;
    const o = offs[k];
    const cols = n + 1;
    const fwd = new Int32Array(n).fill(-1); // target j -> source i
    const rev = new Int32Array(m).fill(-1); // source i -> target j
    const pf = m > 0 && n > 0 ? priorTable(m, n) : null; // rows: target j, columns: source i (0 = NULL)
    for (let j = 1; j <= n && pf; j++) {
      const po = j * (m + 1);
      let best = pf[po] * tF[mat[o + j]];
      let bi = 0;
      for (let i = 1; i <= m; i++) {
        const v = pf[po + i] * tF[mat[o + i * cols + j]];
        if (v > best) {
          best = v;
          bi = i;
        }
      }
      fwd[j - 1] = bi - 1;
    }
    const pr = m > 0 && n > 0 ? priorTable(n, m) : null; // rows: source i, columns: target j (0 = NULL)
    for (let i = 1; i <= m && pr; i++) {
      const po = i * (n + 1);
      let best = pr[po] * tR[mat[o + i * cols]];
      let bj = 0;
      for (let j = 1; j <= n; j++) {
        const v = pr[po + j] * tR[mat[o + i * cols + j]];
        if (v > best) {
          best = v;
          bj = j;
        }
      }
      rev[i - 1] = bj - 1;
    }
    links.push(growDiagFinalAnd(m, n, fwd, rev));
  }
  return { model: { index, tF, tR, paramS, paramT, Vt }, links };
}

/** fwd[j] = source position aligned to target j (or -1); rev[i] = target position aligned to source i (or -1). */
export function growDiagFinalAnd(m: number, n: number, fwd: Int32Array, rev: Int32Array): Int32Array {
  const A = new Uint8Array(m * n);
  const inF = new Uint8Array(m * n);
  const inR = new Uint8Array(m * n);
  for (let j = 0; j < n; j++) if (fwd[j] >= 0) inF[fwd[j] * n + j] = 1;
  for (let i = 0; i < m; i++) if (rev[i] >= 0) inR[i * n + rev[i]] = 1;
  const srcAl = new Uint8Array(m);
  const tgtAl = new Uint8Array(n);
  for (let x = 0; x < m * n; x++)
    if (inF[x] && inR[x]) {
      A[x] = 1;
      srcAl[Math.floor(x / n)] = 1;
      tgtAl[x % n] = 1;
    }
  const nb = [
    [-1, 0],
    [0, -1],
    [1, 0],
    [0, 1],
    [-1, -1],
    [-1, 1],
    [1, -1],
    [1, 1],
  ];
  let added = true;
  while (added) {
    added = false;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        if (!A[i * n + j]) continue;
        for (const [di, dj] of nb) {
          const a = i + di;
          const b = j + dj;
          if (a < 0 || b < 0 || a >= m || b >= n || A[a * n + b]) continue;
          if ((!srcAl[a] || !tgtAl[b]) && (inF[a * n + b] || inR[a * n + b])) {
            A[a * n + b] = 1;
            srcAl[a] = 1;
            tgtAl[b] = 1;
            added = true;
          }
        }
      }
  }
  // final-and
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      const x = i * n + j;
      if (!A[x] && (inF[x] || inR[x]) && !srcAl[i] && !tgtAl[j]) {
        A[x] = 1;
        srcAl[i] = 1;
        tgtAl[j] = 1;
      }
    }
  const out: number[] = [];
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) if (A[i * n + j]) out.push(i, j);
  return Int32Array.from(out);
}

export function lookupParam(model: AlignmentModel, s: number, t: number): number {
  return model.index.get(s, t);
}
