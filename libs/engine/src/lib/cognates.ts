/**
 * Near-cognates: an input word the model has no translation for, read as the output-language word it is an adapted
 * spelling of (Quechua 'kuchillu' → Spanish 'cuchillo', 'wikuña' → 'vicuña'). Words are compared by an edit distance
 * whose costs come from the agent's own orthography correspondences: the lexicon's word pairs spelled alike (plain
 * normalized edit distance ≤ COGNATE_LEARN_MAX_DISTANCE, lengths within COGNATE_LEARN_MAX_LENGTH_DIFF, not identical) are aligned character by character, and a
 * substitution, insertion or deletion seen n times in them costs 1 − n / (n + COGNATE_COST_PRIOR) (at least
 * COGNATE_MIN_COST; an unseen one costs 1, a kept character 0). Learned lazily per direction from the lexicon the
 * model already holds (nothing stored in the artifact).
 */
import type { AgentModel } from './model';
import { isPiece } from './subword';
import { isLiteralToken, isWordToken } from './tokenize';
import {
  COGNATE_CLASS_MIN_COUNT,
  COGNATE_COST_PRIOR,
  COGNATE_LEARN_MAX_DISTANCE,
  COGNATE_LEARN_MAX_LENGTH_DIFF,
  COGNATE_MAX_DISTANCE,
  COGNATE_MAX_LENGTH_DIFF,
  COGNATE_MIN_COST,
  COGNATE_MIN_LENGTH,
} from './tuning';
import { FIRST_WORD_ID } from './vocabulary';

/** Characters with an id in the cost tables; words with rarer characters are not indexed. */
const MAX_ALPHABET = 512;
/** Entries per cache before it is emptied. */
const CACHE_SIZE = 5000;
/** Bucket key: character class × this + word length (lengths beyond it share the last bucket). */
const LENGTH_SLOTS = 64;

/** Orthography correspondences of one direction, as edit costs over character ids (id −1: a character never seen). */
export interface EditCosts {
  ids: Map<number, number>;
  size: number;
  /** sub[a · size + b]: cost of writing input character a as output character b */
  sub: Float32Array;
  /** del[a]: cost of leaving out input character a; ins[b]: cost of adding output character b */
  del: Float32Array;
  ins: Float32Array;
  /** class[a]: the smallest id of the characters a is linked to by learned substitutions (the index's buckets) */
  cls: Int32Array;
}

interface Entry {
  word: string;
  chars: Int32Array;
  freq: number;
}

/** Learned edits: counts of substitutions (a, b), deletions (a, −1) and insertions (−1, b) in character ids. */
type EditCounts = Map<number, number>;

function chars(word: string, ids: Map<number, number>, add: boolean): Int32Array | null {
  const cps = Array.from(word, (c) => c.codePointAt(0) as number);
  const out = new Int32Array(cps.length);
  for (let i = 0; i < cps.length; i++) {
    let id = ids.get(cps[i]);
    if (id === undefined) {
      if (!add) {
        out[i] = -1;
        continue;
      }
      if (ids.size >= MAX_ALPHABET) return null;
      ids.set(cps[i], (id = ids.size));
    }
    out[i] = id;
  }
  return out;
}

/** Plain Levenshtein alignment of a and b: the edits (substitutions, deletions, insertions; kept characters and the ending left out). */
function alignEdits(a: Int32Array, b: Int32Array): { distance: number; edits: [number, number][] } {
  const n = a.length;
  const m = b.length;
  const d = Array.from({ length: n + 1 }, (_, i) => {
    const r = new Int32Array(m + 1);
    r[0] = i;
    return r;
  });
  for (let j = 0; j <= m; j++) d[0][j] = j;
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  const edits: [number, number][] = [];
  let i = n;
  let j = m;
  // letters added or left out at the end are an ending (a suffix), not a spelling: not counted
  let ending = true;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && d[i][j] === d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)) {
      if (a[i - 1] !== b[j - 1]) edits.push([a[i - 1], b[j - 1]]);
      ending = false;
      i--;
      j--;
    } else if (i > 0 && d[i][j] === d[i - 1][j] + 1) {
      i--;
      if (!ending) edits.push([a[i], -1]);
    } else {
      j--;
      if (!ending) edits.push([-1, b[j]]);
    }
  }
  return { distance: d[n][m], edits };
}

const countKey = (a: number, b: number): number => (a + 1) * (MAX_ALPHABET + 1) + (b + 1);

/** A word that may be a cognate: a word (not a number, URL or suffix piece) of at least COGNATE_MIN_LENGTH letters. */
function eligible(w: string): boolean {
  return isWordToken(w) && !isLiteralToken(w) && !isPiece(w) && Array.from(w).length >= COGNATE_MIN_LENGTH;
}

/** The edit costs learned from the lexicon of direction `dir` (input side dir, output side 1 − dir). */
export function learnEditCosts(model: AgentModel, dir: 0 | 1): EditCosts {
  const inV = model.sides[dir];
  const outV = model.sides[dir === 0 ? 1 : 0];
  const lex = model.lex[dir];
  const ids = new Map<number, number>();
  const counts: EditCounts = new Map();
  const outOk = new Int8Array(outV.words.length).fill(-1);
  for (let id = FIRST_WORD_ID; id < inV.words.length && id + 1 < lex.off.length; id++) {
    const w = inV.words[id];
    if (lex.off[id] === lex.off[id + 1] || !eligible(w)) continue;
    for (let x = lex.off[id]; x < lex.off[id + 1]; x++) {
      const oid = lex.ids[x];
      if (outOk[oid] < 0) outOk[oid] = eligible(outV.words[oid] ?? '') ? 1 : 0;
      const o = outV.words[oid];
      if (!outOk[oid] || o === w) continue;
      // pairs of different lengths mostly differ by an inflection (a suffix), not by spelling
      if (Math.abs(w.length - o.length) > COGNATE_LEARN_MAX_LENGTH_DIFF) continue;
      const a = chars(w, ids, true);
      const b = chars(o, ids, true);
      if (!a || !b) continue;
      const { distance, edits } = alignEdits(a, b);
      if (distance > COGNATE_LEARN_MAX_DISTANCE * Math.max(a.length, b.length)) continue;
      for (const [p, q] of edits) counts.set(countKey(p, q), (counts.get(countKey(p, q)) ?? 0) + 1);
    }
  }
  // the output vocabulary's characters get ids too (the index holds its words)
  for (let id = FIRST_WORD_ID; id < outV.words.length && ids.size < MAX_ALPHABET; id++) if (eligible(outV.words[id])) chars(outV.words[id], ids, true);
  const size = ids.size;
  const cost = (n: number): number => (n > 0 ? Math.max(COGNATE_MIN_COST, 1 - n / (n + COGNATE_COST_PRIOR)) : 1);
  const sub = new Float32Array(size * size).fill(1);
  const del = new Float32Array(size).fill(1);
  const ins = new Float32Array(size).fill(1);
  for (let a = 0; a < size; a++) sub[a * size + a] = 0;
  const parent = Int32Array.from({ length: size }, (_, i) => i);
  const root = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const [key, n] of counts) {
    const a = Math.floor(key / (MAX_ALPHABET + 1)) - 1;
    const b = (key % (MAX_ALPHABET + 1)) - 1;
    if (a >= 0 && b >= 0) {
      sub[a * size + b] = cost(n);
      if (n >= COGNATE_CLASS_MIN_COUNT) {
        const [ra, rb] = [root(a), root(b)];
        parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    } else if (a >= 0) del[a] = cost(n);
    else ins[b] = cost(n);
  }
  const cls = Int32Array.from({ length: size }, (_, i) => root(i));
  return { ids, size, sub, del, ins, cls };
}

/** Edit distance of a (input characters) and b (output characters) under the learned costs, or Infinity above `max`. */
export function cognateDistance(c: EditCosts, a: Int32Array, b: Int32Array, max: number, rows: [Float64Array, Float64Array]): number {
  let [prev, cur] = rows;
  const m = b.length;
  prev[0] = 0;
  for (let j = 1; j <= m; j++) prev[j] = prev[j - 1] + (b[j - 1] >= 0 ? c.ins[b[j - 1]] : 1);
  for (let i = 1; i <= a.length; i++) {
    const x = a[i - 1];
    const delCost = x >= 0 ? c.del[x] : 1;
    cur[0] = prev[0] + delCost;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const y = b[j - 1];
      const subCost = x === y ? 0 : x >= 0 && y >= 0 ? c.sub[x * c.size + y] : 1;
      const v = Math.min(prev[j] + delCost, cur[j - 1] + (y >= 0 ? c.ins[y] : 1), prev[j - 1] + subCost);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return Infinity;
    [prev, cur] = [cur, prev];
  }
  return prev[m] > max ? Infinity : prev[m];
}

/** One direction's correspondences and the output words indexed by the class of their first character and length. */
interface CognateIndex {
  costs: EditCosts;
  buckets: Map<number, Entry[]>;
}

export class Cognates {
  private readonly index: [CognateIndex | null, CognateIndex | null] = [null, null];
  private readonly cache: [Map<string, string | null>, Map<string, string | null>] = [new Map(), new Map()];
  private rows: [Float64Array, Float64Array] = [new Float64Array(LENGTH_SLOTS), new Float64Array(LENGTH_SLOTS)];

  constructor(private readonly model: AgentModel) {}

  /** The edit costs of a direction (learned on first use). */
  costs(dir: 0 | 1): EditCosts {
    return this.build(dir).costs;
  }

  /**
   * The output-language word an input word (normalized) is a near-cognate of: the closest by the learned edit distance,
   * within COGNATE_MAX_DISTANCE of the longer word's length (the more frequent on a tie), starting and ending with a
   * character of the same class and at most COGNATE_MAX_LENGTH_DIFF characters longer or shorter; null if none.
   */
  find(word: string, dir: 0 | 1): string | null {
    const cache = this.cache[dir];
    const hit = cache.get(word);
    if (hit !== undefined) return hit;
    const res = eligible(word) ? this.search(word, dir) : null;
    if (cache.size > CACHE_SIZE) cache.clear();
    cache.set(word, res);
    return res;
  }

  private search(word: string, dir: 0 | 1): string | null {
    const { costs, buckets } = this.build(dir);
    const a = chars(word, costs.ids, false) as Int32Array;
    if (a[0] < 0) return null;
    if (this.rows[0].length <= a.length + COGNATE_MAX_LENGTH_DIFF + 1) {
      const n = 2 * (a.length + COGNATE_MAX_LENGTH_DIFF + 1);
      this.rows = [new Float64Array(n), new Float64Array(n)];
    }
    const last = a[a.length - 1];
    const lastCls = last >= 0 ? costs.cls[last] : -1;
    let best: Entry | null = null;
    let bestD = Infinity;
    for (let len = Math.max(COGNATE_MIN_LENGTH, a.length - COGNATE_MAX_LENGTH_DIFF); len <= a.length + COGNATE_MAX_LENGTH_DIFF; len++) {
      const max = COGNATE_MAX_DISTANCE * Math.max(a.length, len);
      for (const e of buckets.get(costs.cls[a[0]] * LENGTH_SLOTS + Math.min(len, LENGTH_SLOTS - 1)) ?? []) {
        // the last letters correspond too (an ending the word lacks or adds is an inflection, not a cognate)
        if (e.chars.length !== len || costs.cls[e.chars[len - 1]] !== lastCls || e.word === word) continue;
        const d = cognateDistance(costs, a, e.chars, Math.min(max, bestD), this.rows);
        if (d < bestD || (d === bestD && best && e.freq > best.freq)) {
          best = e;
          bestD = d;
        }
      }
    }
    return best ? best.word : null;
  }

  private build(dir: 0 | 1): CognateIndex {
    const known = this.index[dir];
    if (known) return known;
    const costs = learnEditCosts(this.model, dir);
    const outV = this.model.sides[dir === 0 ? 1 : 0];
    const buckets = new Map<number, Entry[]>();
    for (let id = FIRST_WORD_ID; id < outV.words.length; id++) {
      const w = outV.words[id];
      if (!eligible(w)) continue;
      const c = chars(w, costs.ids, false) as Int32Array;
      if (c.some((x) => x < 0)) continue;
      const key = costs.cls[c[0]] * LENGTH_SLOTS + Math.min(c.length, LENGTH_SLOTS - 1);
      const b = buckets.get(key) ?? [];
      b.push({ word: w, chars: c, freq: outV.freq[id] });
      buckets.set(key, b);
    }
    const built = { costs, buckets };
    this.index[dir] = built;
    return built;
  }
}
