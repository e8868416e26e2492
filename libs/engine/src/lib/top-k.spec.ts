import { TopK } from './top-k';

/** The selection TopK replaces (hybrid-index selectTop before it): a min-heap of document ids on a score table. */
function reference(score: Float64Array, idx: number[], m: number): number[] {
  if (idx.length <= m) return [...idx].sort((a, b) => score[b] - score[a]);
  const heap: number[] = [];
  const up = (i: number): void => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (score[heap[i]] < score[heap[p]]) {
        [heap[i], heap[p]] = [heap[p], heap[i]];
        i = p;
      } else break;
    }
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let s = i;
      if (l < heap.length && score[heap[l]] < score[heap[s]]) s = l;
      if (r < heap.length && score[heap[r]] < score[heap[s]]) s = r;
      if (s === i) return;
      [heap[i], heap[s]] = [heap[s], heap[i]];
      i = s;
    }
  };
  for (const d of idx) {
    if (heap.length < m) {
      heap.push(d);
      up(heap.length - 1);
    } else if (score[d] > score[heap[0]]) {
      heap[0] = d;
      down(0);
    }
  }
  return heap.sort((a, b) => score[b] - score[a]);
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('TopK', () => {
  it('keeps the same documents in the same order as the reference min-heap, ties included', () => {
    const r = rng(7);
    const top = new TopK(10);
    for (let trial = 0; trial < 2000; trial++) {
      const n = Math.floor(r() * 60);
      // few distinct values: most scores tie
      const levels = 1 + Math.floor(r() * 6);
      const score = new Float64Array(n);
      for (let d = 0; d < n; d++) score[d] = Math.floor(r() * levels) / levels - (r() < 0.1 ? 1 : 0);
      const idx = Array.from({ length: n }, (_, i) => i).sort(() => r() - 0.5);
      top.reset();
      for (const d of idx) top.offer(d, score[d]);
      const expected = reference(score, idx, 10);
      expect(top.result()).toEqual(expected);
      expect(top.selectIndexed(score, Int32Array.from(idx), idx.length)).toEqual(expected);
    }
  });

  it('selectRows offers the live documents in document order with their row scores', () => {
    const r = rng(11);
    const top = new TopK(10);
    for (let trial = 0; trial < 2000; trial++) {
      const n = Math.floor(r() * 60);
      const rows = 1 + Math.floor(r() * 8);
      const rowScore = Float64Array.from({ length: rows }, () => Math.floor(r() * 4) / 4);
      const rowOf = Int32Array.from({ length: n }, () => Math.floor(r() * rows));
      const alive = Uint8Array.from({ length: n }, () => (r() < 0.8 ? 1 : 0));
      const score = Float64Array.from(rowOf, (x) => rowScore[x]);
      const live = [...Array(n).keys()].filter((d) => alive[d]);
      expect(top.selectRows(rowScore, rowOf, alive, n)).toEqual(reference(score, live, 10));
      // every document live: the same without the live table
      expect(top.selectRows(rowScore, rowOf, null, n)).toEqual(reference(score, [...Array(n).keys()], 10));
    }
  });

  it('answers all offers, best first in offer order among ties, when no more than m were offered', () => {
    const top = new TopK(4);
    for (const [d, s] of [
      [5, 1],
      [2, 3],
      [9, 1],
      [1, 3],
    ])
      top.offer(d, s);
    expect(top.result()).toEqual([2, 1, 5, 9]);
    expect(top.floor).toBe(1);
    top.reset();
    expect(top.floor).toBe(-Infinity);
    expect(top.result()).toEqual([]);
  });
});
