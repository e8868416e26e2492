/**
 * Sentence alignment: Gale & Church (1993) length-based dynamic programming, plus lexical anchors
 * (numbers, identical tokens such as names, and final punctuation) that pull beads towards the right
 * pairing. Returns beads of consecutive source/target sentence indices.
 */
export interface Bead {
  source: number[];
  target: number[];
}

const PRIORS: Array<[number, number, number]> = [
  [1, 1, 0.89],
  [1, 0, 0.0099 / 2],
  [0, 1, 0.0099 / 2],
  [2, 1, 0.089 / 2],
  [1, 2, 0.089 / 2],
  [2, 2, 0.011],
];
const S2 = 6.8;

function normCdf(x: number): number {
  // Abramowitz & Stegun 26.2.17
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989423 * Math.exp((-x * x) / 2);
  const p = d * t * (0.3193815 + t * (-0.3565638 + t * (1.781478 + t * (-1.821256 + t * 1.330274))));
  return x > 0 ? 1 - p : p;
}

function lengthCost(l1: number, l2: number, c: number): number {
  if (l1 === 0 && l2 === 0) return 0;
  const mean = (l1 + l2 / c) / 2;
  const z = (c * l1 - l2) / Math.sqrt(Math.max(mean, 1) * S2);
  const pd = 2 * (1 - normCdf(Math.abs(z)));
  return -Math.log(Math.max(pd, 1e-12));
}

interface Features {
  numbers: string[];
  names: Set<string>;
  end: string;
}

function features(s: string): Features {
  const numbers = (s.match(/\d+(?:[.,]\d+)?/g) ?? []).sort();
  const names = new Set((s.match(/[\p{Lu}][\p{L}\p{M}]{2,}/gu) ?? []).filter((w, i) => i > 0 || /\d/.test(w)).map((w) => w.toLowerCase()));
  const m = s.trim().match(/([?!.:…])["'”»)]*$/);
  return { numbers, names, end: m ? m[1] : '' };
}

function anchorCost(a: Features[], b: Features[]): number {
  const na = a.flatMap((f) => f.numbers).sort();
  const nb = b.flatMap((f) => f.numbers).sort();
  let cost = 0;
  if (na.length || nb.length) cost += na.join(' ') === nb.join(' ') ? -2 : 1.5;
  const namesA = new Set(a.flatMap((f) => [...f.names]));
  for (const f of b) for (const n of f.names) if (namesA.has(n)) cost -= 1;
  if (a.length && b.length) {
    const ea = a[a.length - 1].end;
    const eb = b[b.length - 1].end;
    if ((ea === '?' || ea === '!' || eb === '?' || eb === '!') && ea !== eb) cost += 2;
    else if (ea && ea === eb) cost -= 0.3;
  }
  return cost;
}

export function alignSentences(source: string[], target: string[], opts: { band?: number } = {}): Bead[] {
  const n = source.length;
  const m = target.length;
  if (n === 0 || m === 0) return [];
  const ls = source.map((s) => s.length);
  const lt = target.map((s) => s.length);
  // Length ratio of the two languages, from medians so an untranslated insertion does not skew it.
  const median = (v: number[]) => {
    const s = [...v].sort((x, y) => x - y);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const c = Math.max(0.2, Math.min(5, median(lt) / Math.max(1, median(ls))));
  const fs = source.map(features);
  const ft = target.map(features);
  const W = Math.max(opts.band ?? 60, Math.abs(n - m) + 10);
  const lo = (i: number) => Math.max(0, Math.floor((i * m) / n) - W);
  const hi = (i: number) => Math.min(m, Math.ceil((i * m) / n) + W);
  const cost: Float64Array[] = [];
  const back: Int8Array[] = [];
  const at = (i: number, j: number) => (i < 0 || j < lo(i) || j > hi(i) ? Infinity : cost[i][j - lo(i)]);
  for (let i = 0; i <= n; i++) {
    const L = lo(i);
    const H = hi(i);
    const row = new Float64Array(H - L + 1).fill(Infinity);
    const brow = new Int8Array(H - L + 1).fill(-1);
    cost.push(row);
    back.push(brow);
    for (let j = L; j <= H; j++) {
      if (i === 0 && j === 0) {
        row[0] = 0;
        continue;
      }
      for (let k = 0; k < PRIORS.length; k++) {
        const [di, dj, prior] = PRIORS[k];
        if (i - di < 0 || j - dj < 0) continue;
        const prev = di === 0 ? (j - dj >= L ? row[j - dj - L] : Infinity) : at(i - di, j - dj);
        if (prev === Infinity) continue;
        let l1 = 0;
        let l2 = 0;
        for (let x = 1; x <= di; x++) l1 += ls[i - x];
        for (let y = 1; y <= dj; y++) l2 += lt[j - y];
        // Insertions/deletions pay only their prior: their length says nothing about a translation.
        let v = prev - Math.log(prior) + (di && dj ? lengthCost(l1, l2, c) : 0);
        if (di && dj) v += anchorCost(fs.slice(i - di, i), ft.slice(j - dj, j));
        if (v < row[j - L]) {
          row[j - L] = v;
          brow[j - L] = k;
        }
      }
    }
  }
  const beads: Bead[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const k = back[i][j - lo(i)];
    if (k < 0) break;
    const [di, dj] = PRIORS[k];
    beads.push({
      source: Array.from({ length: di }, (_, x) => i - di + x),
      target: Array.from({ length: dj }, (_, y) => j - dj + y),
    });
    i -= di;
    j -= dj;
  }
  return beads.reverse();
}

/** Aligns and joins: every bead with both sides becomes one pair; 1-0 / 0-1 beads come back as unmatched. */
export function alignToPairs(source: string[], target: string[]): { pairs: [string, string][]; unmatched: number } {
  const pairs: [string, string][] = [];
  let unmatched = 0;
  for (const b of alignSentences(source, target)) {
    if (!b.source.length || !b.target.length) {
      unmatched += b.source.length + b.target.length;
      continue;
    }
    pairs.push([b.source.map((x) => source[x]).join(' '), b.target.map((y) => target[y]).join(' ')]);
  }
  return { pairs, unmatched };
}

const ABBREV = /(?<![\p{L}\p{M}'’ʼ])(?:(?:Sr|Sra|Srta|Dr|Dra|Mr|Mrs|Ms|St|etc|p|pp|vol|cap|núm|No|Nº|Lic|Ing|Prof|Av|Ud|Uds|Vd|fig|ej|e\.g|i\.e)|\p{L})\.$/iu;

/** Splits running text into sentences on . ! ? … followed by a capital, an opening mark or a digit. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const re = /[.!?…]+["'”»)]*\s+(?=[\p{Lu}¿¡"“«(\d])/gu;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const end = m.index + m[0].trimEnd().length;
    const candidate = text.slice(start, end);
    if (ABBREV.test(candidate)) continue;
    out.push(candidate.trim());
    start = m.index + m[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out.filter(Boolean);
}
