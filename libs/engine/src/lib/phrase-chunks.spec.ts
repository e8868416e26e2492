import { ArtifactFormatError, ArtifactReader, ArtifactWriter } from './artifact-codec';
import { OptionChunks, optionChunkSections, scoreCodebook, writeOptionChunks } from './phrase-chunks';
import { PHRASE_SCORES_PER_OPTION } from './phrase-table';

/** A made-up table: key k has k % 4 options (some none), output phrases of 1-3 word ids, scores with repeats and -Infinity. */
function table(keys: number, wide = false) {
  const off = new Int32Array(keys + 1);
  for (let k = 0; k < keys; k++) off[k + 1] = off[k] + (k % 4);
  const n = off[keys];
  const tgtOff = new Int32Array(n + 1);
  const tgtIds: number[] = [];
  const scores = new Float32Array(n * PHRASE_SCORES_PER_OPTION);
  const counts = new Float32Array(n);
  for (let o = 0; o < n; o++) {
    for (let j = 0; j <= o % 3; j++) tgtIds.push(wide ? 70000 + ((o * 7 + j) % 5000) : 3 + ((o * 13 + j) % 900));
    tgtOff[o + 1] = tgtIds.length;
    for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++)
      scores[o * PHRASE_SCORES_PER_OPTION + s] = o % 97 === 5 && s === 2 ? -Infinity : -Math.log(1 + ((o * (s + 3)) % 50));
    counts[o] = 1 + (o % 7) * (wide ? 100000 : 1);
  }
  return { off, tgtOff, tgtIds: Int32Array.from(tgtIds), scores, counts };
}

function roundTrip(t: ReturnType<typeof table>): OptionChunks {
  const w = new ArtifactWriter('TEST', 1);
  writeOptionChunks(w, 0, t);
  const r = ArtifactReader.open(w.finish(), 'TEST');
  return new OptionChunks(r.extract(optionChunkSections(0)), 0, t.off);
}

describe('phrase option chunks', () => {
  it.each([
    ['one chunk', 50, false],
    ['many chunks', 40000, false],
    ['word ids and counts beyond 16 bits', 20000, true],
  ])('reads back every option of every key (%s)', (_name, keys, wide) => {
    const t = table(keys, wide);
    const chunks = roundTrip(t);
    // at most 50 distinct scores per column: the 8-bit codes read each one back exactly
    for (let k = keys - 1; k >= 0; k -= 1 + (k % 3)) {
      const o = chunks.options(k);
      expect(o.to - o.from).toBe(t.off[k + 1] - t.off[k]);
      for (let x = 0; x < o.to - o.from; x++) {
        const g = t.off[k] + x;
        const y = o.from + x;
        expect(Array.from(o.tgtIds.subarray(o.tgtOff[y], o.tgtOff[y + 1]))).toEqual(Array.from(t.tgtIds.subarray(t.tgtOff[g], t.tgtOff[g + 1])));
        expect(o.counts[y]).toBe(t.counts[g]);
        for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++) {
          const want = t.scores[g * PHRASE_SCORES_PER_OPTION + s];
          const got = o.scores[y * PHRASE_SCORES_PER_OPTION + s];
          expect(got).toBe(want);
        }
      }
    }
  });

  it('stores the scores as 8-bit codes: one codebook per column, its levels fitted to the values', () => {
    // a column of 20,000 distinct values, skewed as log-probabilities are, with -Infinity and NaN among them
    const n = 20000;
    const scores = new Float32Array(n * PHRASE_SCORES_PER_OPTION);
    for (let o = 0; o < n; o++)
      for (let s = 0; s < PHRASE_SCORES_PER_OPTION; s++) scores[o * PHRASE_SCORES_PER_OPTION + s] = Math.log(((o * 7919 + s * 104729) % n) / n + 1e-6);
    scores[5 * PHRASE_SCORES_PER_OPTION + 1] = -Infinity;
    scores[9 * PHRASE_SCORES_PER_OPTION + 1] = NaN;
    const book = scoreCodebook(scores, 1, PHRASE_SCORES_PER_OPTION);
    expect(book.length).toBeLessThanOrEqual(256);
    expect(Object.is(book[book.length - 2], -Infinity) && Number.isNaN(book[book.length - 1])).toBe(true);
    const finite = book.subarray(0, book.length - 2);
    for (let i = 1; i < finite.length; i++) expect(finite[i]).toBeGreaterThan(finite[i - 1]);
    // each value read back as its nearest level: the mean error is a small share of the column's spread
    let err = 0;
    let spread = 0;
    const mean = Array.from(scores.filter((_, x) => x % PHRASE_SCORES_PER_OPTION === 1 && Number.isFinite(scores[x]))).reduce(
      (a, b, _i, all) => a + b / all.length,
      0,
    );
    let counted = 0;
    for (let o = 0; o < n; o++) {
      const v = scores[o * PHRASE_SCORES_PER_OPTION + 1];
      if (!Number.isFinite(v)) continue;
      err += Math.min(...Array.from(finite, (l) => (l - v) ** 2));
      spread += Math.abs(v - mean);
      counted++;
    }
    expect(err / counted).toBeLessThan(spread / counted / 100);
    // no more levels than distinct values: a column of few values is stored exactly
    expect(Array.from(scoreCodebook(Float32Array.of(-2, 0, -2, -0.5), 0, 1))).toEqual([-2, -0.5, 0]);
  });

  it('inflates only the chunk of the key read', () => {
    const t = table(40000);
    const chunks = roundTrip(t);
    const before = chunks.byteSize;
    chunks.options(123);
    const one = chunks.byteSize - before;
    chunks.options(124);
    expect(chunks.byteSize - before).toBe(one);
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThan((t.tgtOff.byteLength + t.tgtIds.byteLength + t.scores.byteLength + t.counts.byteLength) / 2);
  });

  it('refuses a chunk directory that does not match its parts', () => {
    const t = table(50);
    const w = new ArtifactWriter('TEST', 1);
    writeOptionChunks(w, 0, t);
    const r = ArtifactReader.open(w.finish(), 'TEST');
    expect(() => new OptionChunks(r.extract(['optZ0']), 0, t.off)).toThrow(ArtifactFormatError);
  });
});
