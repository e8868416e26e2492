import { SentenceEnds } from './sentence-ends';
import { FINAL_WORD_PRIOR } from './tuning';
import { buildVocab } from './vocabulary';

/** Sentences of made-up words: 'ta' opens every one and ends none, 'mu' ends every one, 'ki' is seen once, at an end. */
const SENTENCES = [
  ['ta', 'lo', 'mu', '.'],
  ['ta', 'mu', '.'],
  ['ta', 'lo', 'mu', '!'],
  ['ta', 'ki'],
  ['ta', 'lo', 'mu'],
];

describe('SentenceEnds', () => {
  const vocab = buildVocab(SENTENCES, SENTENCES);
  const ends = new SentenceEnds(vocab);
  const id = (w: string): number => vocab.index.get(w) ?? -1;

  it("counts each sentence's last word token, punctuation after it aside", () => {
    expect(vocab.finals?.[id('mu')]).toBe(4);
    expect(vocab.finals?.[id('ki')]).toBe(1);
    expect(vocab.finals?.[id('ta')]).toBe(0);
    expect(vocab.finals?.[id('.')]).toBe(0);
  });

  it('costs a word the data never ends a sentence with, the more the more often it was seen', () => {
    // seen 5 times, never last: its end rate is the average's drawn down by 5 occurrences that were not ends
    expect(ends.cost(id('ta'))).toBeCloseTo(Math.log(FINAL_WORD_PRIOR / (5 + FINAL_WORD_PRIOR)), 6);
    expect(ends.cost(id('lo'))).toBeCloseTo(Math.log(FINAL_WORD_PRIOR / (3 + FINAL_WORD_PRIOR)), 6);
    expect(ends.cost(id('lo'))).toBeLessThan(0);
    expect(ends.cost(id('lo'))).toBeGreaterThan(ends.cost(id('ta')));
  });

  it('costs nothing for a word that ends sentences as often as the average word or more, nor for an unknown word', () => {
    expect(ends.cost(id('mu'))).toBe(0);
    expect(ends.cost(id('ki'))).toBe(0);
    expect(ends.cost(0)).toBe(0);
    expect(ends.cost(vocab.words.length + 3)).toBe(0);
  });

  it('costs nothing when the vocabulary has no sentence-end counts (an artifact written before them)', () => {
    const old = new SentenceEnds({ ...vocab, finals: undefined });
    expect(old.cost(id('ta'))).toBe(0);
  });
});
