import { BOS, KnLm, LogProbCache } from './lm';
import { ArtifactReader, ArtifactWriter } from './artifact-codec';

describe('Kneser-Ney trigram LM', () => {
  // vocabulary: 0 unk, 1 <s>, 2 </s>, 3..7 words
  const sents = [
    [3, 4, 5],
    [3, 4, 6],
    [3, 4, 5],
    [7, 4, 5],
    [3, 6],
  ].map((s) => Int32Array.from(s));
  const lm = KnLm.train(sents, 8);

  it('gives a proper distribution over the vocabulary (sums to ~1) for seen and unseen contexts', () => {
    for (const [u, v] of [
      [3, 4],
      [BOS, 3],
      [6, 7],
      [5, 5],
    ]) {
      let sum = 0;
      for (let w = 0; w < 8; w++) if (w !== BOS) sum += Math.exp(lm.logProb(u, v, w));
      expect(sum).toBeGreaterThan(0.97);
      expect(sum).toBeLessThan(1.001);
    }
  });

  it('prefers seen continuations but leaves mass for unseen ones (smoothing)', () => {
    expect(lm.logProb(3, 4, 5)).toBeGreaterThan(lm.logProb(3, 4, 6));
    expect(lm.logProb(3, 4, 6)).toBeGreaterThan(lm.logProb(3, 4, 7));
    expect(Number.isFinite(lm.logProb(3, 4, 7))).toBe(true);
    expect(lm.logProb(3, 4, 7)).toBeLessThan(0);
    // a fluent sentence scores higher than its scramble
    expect(lm.scoreSentence([3, 4, 5])).toBeGreaterThan(lm.scoreSentence([5, 3, 4]));
  });

  it('round-trips through an artifact', () => {
    const w = new ArtifactWriter('TEST', 1);
    lm.write(w, 'x');
    const copy = KnLm.read(ArtifactReader.open(w.finish(), 'TEST'), 'x');
    expect(copy.logProb(3, 4, 5)).toBeCloseTo(lm.logProb(3, 4, 5), 6);
    expect(copy.scoreSentence([7, 4, 6])).toBeCloseTo(lm.scoreSentence([7, 4, 6]), 6);
  });

  it('answers the same log-probability whether it was cached or not, in any order of lookups', () => {
    const triples: [number, number, number][] = [];
    for (let u = 0; u < 8; u++) for (let v = 0; v < 8; v++) for (let w = 0; w < 8; w++) triples.push([u, v, w]);
    const first = triples.map(([u, v, w]) => lm.logProb(u, v, w));
    const again = triples.map(([u, v, w]) => lm.logProb(u, v, w));
    const fresh = KnLm.train(sents, 8);
    const reversed = [...triples]
      .reverse()
      .map(([u, v, w]) => fresh.logProb(u, v, w))
      .reverse();
    expect(again).toEqual(first);
    expect(reversed).toEqual(first);
  });

  it('keeps the newest trigrams of a bucket: a fifth one with the same hash forgets the oldest, which is computed again', () => {
    const cache = new LogProbCache(4); // one bucket of four slots
    const h = LogProbCache.hash(3, 4, 5);
    expect(cache.get(h, 7)).toBeNaN();
    for (let k = 1; k <= 4; k++) cache.set(h, k, -k);
    for (let k = 1; k <= 4; k++) expect(cache.get(h, k)).toBe(-k);
    cache.set(h, 5, -5);
    expect(cache.get(h, 1)).toBeNaN();
    for (let k = 2; k <= 5; k++) expect(cache.get(h, k)).toBe(-k);
    expect(() => new LogProbCache(12)).toThrow(/power of two/);
    expect(LogProbCache.slotsFor(10)).toBe(1024);
    expect(LogProbCache.slotsFor(5000)).toBe(8192);
    expect(LogProbCache.slotsFor(1e9)).toBe(1 << 19);
  });
});
