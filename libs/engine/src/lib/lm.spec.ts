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
    const cache = new LogProbCache(4, 8); // one bucket of four slots
    const h = LogProbCache.hash(3, 4, 5);
    expect(cache.get(h, 7)).toBeNaN();
    for (let k = 1; k <= 4; k++) cache.set(h, k, -k);
    for (let k = 1; k <= 4; k++) expect(cache.get(h, k)).toBe(-k);
    cache.set(h, 5, -5);
    expect(cache.get(h, 1)).toBeNaN();
    for (let k = 2; k <= 5; k++) expect(cache.get(h, k)).toBe(-k);
    expect(() => new LogProbCache(12, 8)).toThrow(/power of two/);
    // trigram key 0 (<unk> <unk> <unk>) is a key like any other
    cache.set(LogProbCache.hash(0, 0, 0), 0, -0.5);
    expect(cache.get(LogProbCache.hash(0, 0, 0), 0)).toBe(-0.5);
    expect(LogProbCache.slotsFor(10)).toBe(1024);
    expect(LogProbCache.slotsFor(5000)).toBe(8192);
    expect(LogProbCache.slotsFor(1e9)).toBe(1 << 19);
  });

  it('starts with a small table and grows it fourfold, trigrams kept, once it stored half as many as it has slots', () => {
    const V = 1 << 17;
    const cache = new LogProbCache(1 << 16, V);
    expect(cache.size).toBe(0);
    expect(cache.bytesBound).toBe(((1 << 16) + 4096) * 16);
    const key = (k: number): number => (k * V + 1) * V + 2;
    const h = (k: number): number => LogProbCache.hash(k, 1, 2);
    const found = (n: number): number => {
      let f = 0;
      for (let k = 0; k < n; k++) if (cache.get(h(k), key(k)) === -k) f++;
      return f;
    };
    for (let k = 0; k < 2048; k++) cache.set(h(k), key(k), -k);
    expect(cache.size).toBe(4096);
    // at half load a few 4-way buckets overflowed already: those forgot their oldest
    const before = found(2048);
    expect(before).toBeGreaterThan(1900);
    cache.set(h(5000), key(5000), -5000);
    expect(cache.size).toBe(16384);
    expect(found(2048)).toBe(before);
    expect(cache.get(h(5000), key(5000))).toBe(-5000);
    for (let k = 0; k < 30000; k++) cache.set(h(k), key(k), -k);
    expect(cache.size).toBe(1 << 16);
    expect(found(30000)).toBeGreaterThan(28000);
  });
});
