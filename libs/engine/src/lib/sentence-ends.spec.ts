import { countSentenceEnds, lastWordAt, SentenceEnds } from './sentence-ends';
import { PIECE_MARK } from './subword';
import { DROPPABLE_RANK, FINAL_WORD_PRIOR } from './tuning';
import { buildVocab } from './vocabulary';

/** A suffix piece of the made-up language (subword.ts). */
const PE = `${PIECE_MARK}pe`;
/**
 * Sentences of made-up words: 'ta' opens every one and ends none, 'mu' ends five (twice with the suffix piece -pe
 * after it), 'ki' is seen once, at an end.
 */
const SENTENCES = [
  ['ta', 'lo', 'mu', '.'],
  ['ta', 'mu', PE, '.'],
  ['ta', 'lo', 'mu', '!'],
  ['ta', 'ki'],
  ['ta', 'lo', 'mu', PE],
  ['ta', 'mu'],
];

describe('SentenceEnds', () => {
  const vocab = buildVocab(SENTENCES, SENTENCES);
  vocab.finals = countSentenceEnds(SENTENCES, vocab);
  const ends = new SentenceEnds(vocab);
  const id = (w: string): number => vocab.index.get(w) ?? -1;

  it("counts each sentence's last word, punctuation and suffix pieces after it aside", () => {
    expect(vocab.finals?.[id('mu')]).toBe(5);
    expect(vocab.finals?.[id('ki')]).toBe(1);
    expect(vocab.finals?.[id('ta')]).toBe(0);
    expect(vocab.finals?.[id('.')]).toBe(0);
    expect(vocab.finals?.[id(PE)]).toBe(0);
  });

  it('finds the last word of model tokens, punctuation and suffix pieces after it aside', () => {
    expect(lastWordAt(['ta', 'mu', PE, '.'])).toBe(1);
    expect(lastWordAt(['ta', 'mu'])).toBe(1);
    expect(lastWordAt([PE, '.'])).toBe(-1);
    expect(lastWordAt([])).toBe(-1);
  });

  it('costs a word the data never ends a sentence with, the more the more often it was seen', () => {
    // seen 6 times, never last: its end rate is the average's drawn down by 6 occurrences that were not ends
    expect(ends.cost(id('ta'))).toBeCloseTo(Math.log(FINAL_WORD_PRIOR / (6 + FINAL_WORD_PRIOR)), 6);
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

  it("judges only the language's most frequent words: a rarer word the data never ends with costs nothing", () => {
    // DROPPABLE_RANK made-up words each seen more often than 'lo' push it beyond the most frequent ones
    const fillers = Array.from({ length: DROPPABLE_RANK }, (_, x) => `w${x}`);
    const more = [...SENTENCES, ...Array.from({ length: 4 }, () => ['ta', ...fillers, 'mu'])];
    const wide = buildVocab(more, more);
    wide.finals = countSentenceEnds(more, wide);
    const lo = wide.index.get('lo') ?? -1;
    expect(lo).toBeGreaterThanOrEqual(DROPPABLE_RANK);
    expect(new SentenceEnds(wide).cost(lo)).toBe(0);
    expect(new SentenceEnds(wide).cost(wide.index.get('ta') ?? -1)).toBeLessThan(0);
  });

  it('costs nothing when the vocabulary has no sentence-end counts (an artifact written before them)', () => {
    const old = new SentenceEnds({ ...vocab, finals: undefined });
    expect(old.cost(id('ta'))).toBe(0);
  });
});
