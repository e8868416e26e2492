/**
 * The m best of a stream of (document, score) offers, best first, in typed arrays: the same answer, ties included, as
 * the reference below (a min-heap of the first m offers, an offer replacing the root only when strictly better, the
 * heap then sorted stably by descending score; when at most m were offered, all of them in offer order sorted stably).
 * Equal scores are common (duplicate texts score alike), so the order ties come out in is part of the answer.
 *
 *   reference(offers, m): if offers.length <= m: stable sort of offers by score desc
 *                         else: heap of doc ids (sift up / down on score, strict <, left child first),
 *                               heap.sort((a, b) => score[b] - score[a])
 */
export class TopK {
  /** heap of the documents kept and their scores (parallel) */
  private ids: Int32Array;
  private scores: Float64Array;
  /** the first m offers in offer order (the answer when no more than m are offered) */
  private firstIds: Int32Array;
  private firstScores: Float64Array;
  /** scratch of result() */
  private outIds: Int32Array;
  private outScores: Float64Array;
  private size = 0;
  private offered = 0;

  constructor(private readonly m: number) {
    this.ids = new Int32Array(m);
    this.scores = new Float64Array(m);
    this.firstIds = new Int32Array(m);
    this.firstScores = new Float64Array(m);
    this.outIds = new Int32Array(m);
    this.outScores = new Float64Array(m);
  }

  /** Forgets every offer. */
  reset(): void {
    this.size = 0;
    this.offered = 0;
  }

  /** The score an offer must exceed to be kept once m were offered (-Infinity before). */
  get floor(): number {
    return this.size < this.m ? -Infinity : this.scores[0];
  }

  offer(d: number, s: number): void {
    const ids = this.ids;
    const sc = this.scores;
    if (this.offered++ < this.m) {
      this.firstIds[this.size] = d;
      this.firstScores[this.size] = s;
      // sift up
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (s < sc[p]) {
          ids[i] = ids[p];
          sc[i] = sc[p];
          i = p;
        } else break;
      }
      ids[i] = d;
      sc[i] = s;
      return;
    }
    if (s > sc[0]) this.replaceRoot(d, s);
  }

  /**
   * Offers idx[0..len) with the scores score[idx[x]], in that order, after a reset; returns the result. An offer
   * that cannot enter (not above the floor once m were offered) costs one comparison.
   */
  selectIndexed(score: Float64Array, idx: Int32Array, len: number): number[] {
    this.reset();
    const head = Math.min(len, this.m);
    for (let x = 0; x < head; x++) this.offer(idx[x], score[idx[x]]);
    if (len > head) {
      this.offered = len;
      const sc = this.scores;
      let floor = sc[0];
      for (let x = head; x < len; x++) {
        const d = idx[x];
        const s = score[d];
        if (s > floor) {
          this.replaceRoot(d, s);
          floor = sc[0];
        }
      }
    }
    return this.result();
  }

  /**
   * Offers every document d < n with alive[d] (every one when alive is null), scored rowScore[rowOf[d]], in document
   * order, after a reset; returns the result.
   */
  selectRows(rowScore: Float64Array, rowOf: Int32Array, alive: Uint8Array | null, n: number): number[] {
    this.reset();
    const m = this.m;
    let d = 0;
    for (; d < n && this.offered < m; d++) if (!alive || alive[d]) this.offer(d, rowScore[rowOf[d]]);
    const sc = this.scores;
    let floor = sc[0];
    let more = 0;
    if (alive)
      for (; d < n; d++) {
        if (!alive[d]) continue;
        more++;
        const s = rowScore[rowOf[d]];
        if (s > floor) {
          this.replaceRoot(d, s);
          floor = sc[0];
        }
      }
    else {
      more = n - d;
      for (; d < n; d++) {
        const s = rowScore[rowOf[d]];
        if (s > floor) {
          this.replaceRoot(d, s);
          floor = sc[0];
        }
      }
    }
    this.offered += more;
    return this.result();
  }

  /** Replaces the heap's root (its smallest score) by d and sifts it down. */
  private replaceRoot(d: number, s: number): void {
    const ids = this.ids;
    const sc = this.scores;
    const n = this.size;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let c = i;
      let cs = s;
      if (l < n && sc[l] < cs) {
        c = l;
        cs = sc[l];
      }
      if (r < n && sc[r] < cs) {
        c = r;
        cs = sc[r];
      }
      if (c === i) break;
      ids[i] = ids[c];
      sc[i] = cs;
      i = c;
    }
    ids[i] = d;
    sc[i] = s;
  }

  /** The documents kept, best first (ties as the reference leaves them). */
  result(): number[] {
    const all = this.offered <= this.m;
    const ids = all ? this.firstIds : this.ids;
    const sc = all ? this.firstScores : this.scores;
    const n = this.size;
    const outIds = this.outIds;
    const outSc = this.outScores;
    // stable insertion sort by descending score (m is small), taking the elements from the last one back: each goes
    // before the equal ones already placed (they follow it in the array). A heap keeps its small scores first, so
    // from the back they come nearly in descending order and few move (from the front, most moved past all the others).
    for (let i = n - 1, k = 0; i >= 0; i--, k++) {
      const d = ids[i];
      const s = sc[i];
      let j = k;
      while (j > 0 && outSc[j - 1] <= s) {
        outIds[j] = outIds[j - 1];
        outSc[j] = outSc[j - 1];
        j--;
      }
      outIds[j] = d;
      outSc[j] = s;
    }
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = outIds[i];
    return out;
  }
}
