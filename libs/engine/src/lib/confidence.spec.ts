import { confidenceFeatures, rawConfidence } from './confidence';
import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { Translator } from './translator';
import type { Candidate } from './types';
import { everydayCorpus } from '../testing/everyday-corpus';

const candidate = (text: string, lexR: number): Candidate => ({ text, strategy: 'phrase-decoder', score: 0, mbr: 0, features: { lexR } });

describe('Raw confidence from features that predict quality on unseen text', () => {
  const base = { words: 8, lexicalSupport: 0.6, agreement: 0.5, untranslated: 0 };

  it('stays within 0..1 and rises with lexical support, candidate agreement and input length', () => {
    const c = rawConfidence(base);
    expect(c).toBeGreaterThan(0);
    expect(c).toBeLessThanOrEqual(1);
    expect(rawConfidence({ ...base, lexicalSupport: 0.9 })).toBeGreaterThan(c);
    expect(rawConfidence({ ...base, agreement: 0.9 })).toBeGreaterThan(c);
    expect(rawConfidence({ ...base, words: 20 })).toBeGreaterThan(c);
    expect(rawConfidence({ words: 1000, lexicalSupport: 1, agreement: 1, untranslated: 0 })).toBeLessThanOrEqual(1);
    expect(rawConfidence({ words: 0, lexicalSupport: 0, agreement: 0, untranslated: 1 })).toBe(0);
  });

  it('is lowered by untranslated input', () => {
    expect(rawConfidence({ ...base, untranslated: 0.5 })).toBeLessThan(rawConfidence(base));
  });

  it('reads the features off the candidates: agreement is the mean pairwise chrF, lexical support the answer’s p(s|t)', () => {
    const same = [candidate('my mother eats bread', -0.5), candidate('my mother eats bread', -3)];
    const apart = [candidate('my mother eats bread', -0.5), candidate('zzz qqq', -3)];
    const a = confidenceFeatures(['mi', 'madre', 'come', 'pan'], same[0], same, 0);
    const b = confidenceFeatures(['mi', 'madre', 'come', 'pan'], apart[0], apart, 0);
    expect(a.words).toBe(4);
    expect(a.agreement).toBeCloseTo(1, 9);
    expect(b.agreement).toBeLessThan(0.2);
    expect(a.lexicalSupport).toBeGreaterThan(confidenceFeatures(['mi'], same[1], same, 0).lexicalSupport);
    expect(confidenceFeatures(['mi'], same[0], [same[0]], 0).agreement).toBe(1);
  });

  describe('on a small Spanish → English agent', () => {
    const pairs = everydayCorpus();
    const held = new Set(['Mi madre come pan en la mañana.']);
    const train = pairs.filter((p) => !held.has(p.source));
    const index = new HybridIndex();
    index.add(train);
    const tr = new Translator(trainAgentModel(train), index);

    it('is more confident on a sentence its data covers than on one full of unknown words', () => {
      const covered = tr.translateText('Mi madre come pan en la mañana.');
      const unknown = tr.translateText('Zorgo flumba trelis vandu en krameta obul.');
      expect(covered.untranslated).toEqual([]);
      expect(unknown.untranslated.length).toBeGreaterThan(0);
      expect(covered.rawConfidence).toBeGreaterThan(unknown.rawConfidence);
      expect(covered.confidence).toBeGreaterThan(unknown.confidence);
    });

    it('an untranslated span lowers the confidence of an otherwise covered sentence', () => {
      const covered = tr.translateText('Mi madre come pan en la mañana.');
      const gap = tr.translateText('Mi madre come zorgo en la mañana.');
      expect(gap.untranslated.map((s) => s.text)).toEqual(['zorgo']);
      expect(gap.rawConfidence).toBeLessThan(covered.rawConfidence);
    });
  });
});
