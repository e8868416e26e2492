import { BOS, EOS, KnLm, LogProbCache } from './lm';
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
      expect(sum).toBeCloseTo(1, 6);
    }
  });

  it('tells whether the data has one word right after another (a bigram seen once included)', () => {
    expect(lm.seenBigram(3, 4)).toBe(true);
    expect(lm.seenBigram(3, 6)).toBe(true);
    expect(lm.seenBigram(4, 3)).toBe(false);
    expect(lm.seenBigram(5, 5)).toBe(false);
    expect(lm.seenBigram(6, 7)).toBe(false);
  });

  it('stores only the trigrams seen more than once: their contexts give the rest of their share to the bigram estimate', () => {
    const counts = new Map<string, number>();
    for (const s of sents) {
      const ids = [BOS, BOS, ...s, EOS];
      for (let i = 2; i < ids.length; i++) {
        const trigram = ids.slice(i - 2, i + 1).join(' ');
        counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
      }
    }
    const repeated = [...counts.values()].filter((c) => c > 1).length;
    expect(lm.data.c3k.length).toBe(repeated);
    // (3 4) continues as 5 twice and as 6 once: 6 is estimated from the bigram (4 6), below 5, above the unseen 7
    expect(lm.logProb(3, 4, 5)).toBeGreaterThan(lm.logProb(3, 4, 6));
    expect(lm.logProb(3, 4, 6)).toBeGreaterThan(lm.logProb(3, 4, 7));
    // (7 4) was seen once only: no trigram context is stored for it, its words are the bigram estimates
    expect(lm.logProb(7, 4, 5)).toBeCloseTo(lm.logProb(BOS, 4, 5), 12);
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
    expect([copy.seenBigram(3, 6), copy.seenBigram(5, 5)]).toEqual([true, false]);
  });

  it('reads its keys a block at a time from an artifact, with the answers of the keys held whole', () => {
    // enough n-grams for several blocks of keys (a fixed pseudo-random corpus)
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const V = 40;
    const sentences = Array.from({ length: 600 }, () => Int32Array.from({ length: 3 + (next() % 8) }, () => 3 + (next() % (V - 3))));
    // each sentence twice: every trigram is stored (none seen once), as in the models of the older layouts below
    const corpus = [...sentences, ...sentences];
    const big = KnLm.train(corpus, V);
    const w = new ArtifactWriter('TEST', 1);
    big.write(w, 'x');
    const r = ArtifactReader.open(w.finish(), 'TEST');
    expect(r.count('xc3k')).toBeGreaterThan(2 * 512);
    expect(r.has('xc3kAt') && r.has('xc3kHead')).toBe(true);
    const copy = KnLm.read(r, 'x');
    const probe: [number, number, number][] = [];
    for (let i = 0; i < 3000; i++) probe.push([next() % V, next() % V, next() % V]);
    for (const s of corpus.slice(0, 50)) for (let i = 2; i < s.length; i++) probe.push([s[i - 2], s[i - 1], s[i]]);
    // unsorted lookups: blocks are decoded in any order
    for (const [u, v, x] of probe) expect(copy.logProb(u, v, x)).toBe(big.logProb(u, v, x));
    // an artifact written before the blocks (no block sections, no keyBlock) reads its keys whole, with the same answers
    const old = new ArtifactWriter('TEST', 1);
    const d = big.data;
    old.meta('x', { V: d.V, d1: d.d1, d2: d.d2, d3: d.d3, uniTotal: d.uniTotal, uniTypes: d.uniTypes }).uints('xuniCont', d.uniCont);
    for (const k of ['c3k', 'x3k', 'b2k', 'x2k'] as const) old.sortedKeys(`x${k}`, d[k].all());
    for (const c of ['c3v', 'x3s', 'x3n', 'b2v', 'x2s', 'x2n'] as const) old.uints(`x${c}`, d[c].all());
    const whole = KnLm.read(ArtifactReader.open(old.finish(), 'TEST'), 'x');
    for (const [u, v, x] of probe.slice(0, 500)) expect(whole.logProb(u, v, x)).toBe(big.logProb(u, v, x));
    // a legacy blob's columns, keys in any order (sorted once at load, before the keys are blocked)
    const arrays: Record<string, Float32Array | Float64Array> = {};
    for (const k of ['c3k', 'x3k', 'b2k', 'x2k'] as const) arrays[`x${k}`] = d[k].all().slice().reverse();
    for (const c of ['c3v', 'x3s', 'x3n', 'b2v', 'x2s', 'x2n'] as const) arrays[`x${c}`] = d[c].all().slice().reverse();
    arrays['xuniCont'] = d.uniCont;
    const legacy = KnLm.fromLegacyArrays('x', { V: d.V, d1: d.d1, d2: d.d2, d3: d.d3, uniTotal: d.uniTotal, uniTypes: d.uniTypes }, arrays);
    for (const [u, v, x] of probe.slice(0, 500)) expect(legacy.logProb(u, v, x)).toBe(big.logProb(u, v, x));
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
