/**
 * chrF (sacreBLEU definition: character n-grams 1..6, word order 0, beta 2, whitespace removed,
 * statistics summed over the corpus, precision / recall averaged over the effective orders, then F-beta)
 * and BLEU (sacreBLEU-like corpus BLEU, 13a-style tokenization, 4-grams, brevity penalty). Scores are on 0..1.
 */

const CHAR_ORDER = 6;
const BETA = 2;

/** UTF-16 surrogates: a character outside the BMP is a high one (D800–DBFF) followed by a low one (DC00–DFFF). */
const HIGH_SURROGATE_MIN = 0xd800;
const HIGH_SURROGATE_MAX = 0xdbff;
const LOW_SURROGATE_MIN = 0xdc00;
const LOW_SURROGATE_MAX = 0xdfff;

function isHighSurrogate(c: number): boolean {
  return c >= HIGH_SURROGATE_MIN && c <= HIGH_SURROGATE_MAX;
}

export type ChrfStats = Float64Array; // [hyp, ref, match] × order

export function charNgramCounts(text: string, order = CHAR_ORDER): Map<string, number>[] {
  const s = text.split(/\s+/).join('');
  // code-unit offset of every character (code point): an n-gram is the slice between two of them
  const at: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < LOW_SURROGATE_MIN || c > LOW_SURROGATE_MAX || i === 0 || !isHighSurrogate(s.charCodeAt(i - 1))) at.push(i);
  }
  const len = at.length;
  at.push(s.length);
  const res: Map<string, number>[] = [];
  for (let n = 1; n <= order; n++) {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= len; i++) {
      const g = s.slice(at[i], at[i + n]);
      m.set(g, (m.get(g) ?? 0) + 1);
    }
    res.push(m);
  }
  return res;
}

export function chrfStatsFromCounts(h: Map<string, number>[], r: Map<string, number>[], out?: ChrfStats): ChrfStats {
  const order = h.length;
  const st = out ?? new Float64Array(order * 3);
  for (let n = 0; n < order; n++) {
    let nh = 0;
    let nr = 0;
    let nm = 0;
    for (const c of h[n].values()) nh += c;
    for (const c of r[n].values()) nr += c;
    const [small, big] = h[n].size <= r[n].size ? [h[n], r[n]] : [r[n], h[n]];
    for (const [g, c] of small) {
      const o = big.get(g);
      if (o) nm += Math.min(c, o);
    }
    st[3 * n] += nh;
    st[3 * n + 1] += nr;
    st[3 * n + 2] += nm;
  }
  return st;
}

export function chrfFromStats(st: ArrayLike<number>, beta = BETA): number {
  const order = st.length / 3;
  const eps = 1e-16;
  let avgP = 0;
  let avgR = 0;
  let eff = 0;
  for (let n = 0; n < order; n++) {
    const nh = st[3 * n];
    const nr = st[3 * n + 1];
    const nm = st[3 * n + 2];
    avgP += nh > 0 ? nm / nh : eps;
    avgR += nr > 0 ? nm / nr : eps;
    if (nh > 0 && nr > 0) eff++;
  }
  if (eff === 0) return 0;
  avgP /= eff;
  avgR /= eff;
  const f = beta * beta;
  if (avgP + avgR === 0) return 0;
  return ((1 + f) * avgP * avgR) / (f * avgP + avgR);
}

export function sentenceChrF(hyp: string, ref: string): number {
  const st = chrfStatsFromCounts(charNgramCounts(hyp), charNgramCounts(ref));
  return chrfFromStats(st);
}

/** Corpus chrF; `beta` weighs recall against precision (sacreBLEU's default 2; 1 is the balanced F-score). */
export function corpusChrF(hyps: string[], refs: string[], beta = BETA): number {
  if (hyps.length !== refs.length) throw new Error(`corpusChrF: ${hyps.length} hypotheses vs ${refs.length} references`);
  const st = new Float64Array(CHAR_ORDER * 3);
  for (let i = 0; i < hyps.length; i++) chrfStatsFromCounts(charNgramCounts(hyps[i]), charNgramCounts(refs[i]), st);
  return chrfFromStats(st, beta);
}

/** The fixed shuffles of the specificity margin (the quality report of a build and bench/quality alike). */
export const SHUFFLE_SEEDS: readonly number[] = [1, 2, 3, 4, 5];

/** Mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates shuffle with a seeded generator (the same order for the same seed on every machine). */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const rnd = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Corpus chrF of hypotheses against their aligned references, the mean chrF against the same references shuffled
 * with SHUFFLE_SEEDS, and the specificity margin between them (output that ignores its source scores about 0).
 */
export function specificity(hyps: readonly string[], refs: readonly string[]): { chrf: number; shuffled: number; margin: number } {
  const chrf = corpusChrF([...hyps], [...refs]);
  const mean = SHUFFLE_SEEDS.reduce((sum, seed) => sum + corpusChrF([...hyps], shuffled(refs, seed)), 0) / SHUFFLE_SEEDS.length;
  return { chrf, shuffled: mean, margin: chrf - mean };
}

/** sacreBLEU 13a-like tokenization. */
export function bleuTokenize(line: string): string[] {
  let s = ` ${line} `;
  s = s
    .replace(/<skipped>/g, '')
    .replace(/-\n/g, '')
    .replace(/\n/g, ' ');
  s = s
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
  s = s.replace(/([\{-~\[-` -&\(-\+:-@\/])/g, ' $1 ');
  s = s.replace(/([^0-9])([.,])/g, '$1 $2 ');
  s = s.replace(/([.,])([^0-9])/g, ' $1 $2');
  s = s.replace(/([0-9])(-)/g, '$1 $2 ');
  return s.split(/\s+/).filter(Boolean);
}

export function corpusBleu(hyps: string[], refs: string[]): number {
  if (hyps.length !== refs.length) throw new Error(`corpusBleu: ${hyps.length} hypotheses vs ${refs.length} references`);
  const N = 4;
  const matches = new Array(N).fill(0);
  const totals = new Array(N).fill(0);
  let hypLen = 0;
  let refLen = 0;
  for (let i = 0; i < hyps.length; i++) {
    const h = bleuTokenize(hyps[i]);
    const r = bleuTokenize(refs[i]);
    hypLen += h.length;
    refLen += r.length;
    for (let n = 1; n <= N; n++) {
      const rc = new Map<string, number>();
      for (let j = 0; j + n <= r.length; j++) {
        const g = r.slice(j, j + n).join(' ');
        rc.set(g, (rc.get(g) ?? 0) + 1);
      }
      const hc = new Map<string, number>();
      for (let j = 0; j + n <= h.length; j++) {
        const g = h.slice(j, j + n).join(' ');
        hc.set(g, (hc.get(g) ?? 0) + 1);
      }
      for (const [g, c] of hc) matches[n - 1] += Math.min(c, rc.get(g) ?? 0);
      totals[n - 1] += Math.max(0, h.length - n + 1);
    }
  }
  if (hypLen === 0) return 0;
  let logP = 0;
  for (let n = 0; n < N; n++) {
    if (matches[n] === 0 || totals[n] === 0) return 0;
    logP += Math.log(matches[n] / totals[n]) / N;
  }
  const bp = hypLen < refLen ? Math.exp(1 - refLen / hypLen) : 1;
  return bp * Math.exp(logP);
}

/** Sentence BLEU with add-one smoothing for n>1 (for ranking, not reporting). */
export function sentenceBleu(hyp: string, ref: string): number {
  const h = bleuTokenize(hyp);
  const r = bleuTokenize(ref);
  if (!h.length) return 0;
  let logP = 0;
  for (let n = 1; n <= 4; n++) {
    const rc = new Map<string, number>();
    for (let j = 0; j + n <= r.length; j++) {
      const g = r.slice(j, j + n).join(' ');
      rc.set(g, (rc.get(g) ?? 0) + 1);
    }
    let m = 0;
    let t = 0;
    const hc = new Map<string, number>();
    for (let j = 0; j + n <= h.length; j++) {
      const g = h.slice(j, j + n).join(' ');
      hc.set(g, (hc.get(g) ?? 0) + 1);
      t++;
    }
    for (const [g, c] of hc) m += Math.min(c, rc.get(g) ?? 0);
    logP += Math.log((m + (n > 1 ? 1 : 0)) / (t + (n > 1 ? 1 : 0)) || 1e-9) / 4;
  }
  const bp = h.length < r.length ? Math.exp(1 - r.length / h.length) : 1;
  return bp * Math.exp(logP);
}
