import { BOS, EOS } from './lm';
import { countSentenceEnds, lastWordAt, SentenceEnds } from './sentence-ends';
import { PIECE_MARK } from './subword';
import { DROPPABLE_RANK, FINAL_WORD_PRIOR, MARK_CLOSING_SHARE } from './tuning';
import { buildVocab, FIRST_WORD_ID } from './vocabulary';

/** Lines of the punctuation fixture: enough for a dash never closing one to cost (MARK_CLOSING_SHARE). */
const DIALOGUE_TURNS = 60;
/** A suffix piece of the made-up language (subword.ts). */
const PE = `${PIECE_MARK}pe`;
/**
 * Sentences of made-up words: 'ta' opens every one and ends none, 'mu' ends five (twice with the suffix piece -pe
 * after it), 'ki' is seen once, at an end; two end with a full stop, one with '!', and a dash ('-', a second
 * speaker's turn) is seen twice inside a sentence, never at its end.
 */
const SENTENCES = [
  ['ta', 'lo', 'mu', '.'],
  ['ta', 'mu', PE, '.', '-', 'ta', 'mu', '.'],
  ['ta', 'lo', 'mu', '!'],
  ['ta', 'ki'],
  ['ta', 'lo', 'mu', PE],
  ['ta', 'mu', '-', 'ta', 'mu'],
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
    expect(vocab.finals?.[id(PE)]).toBe(0);
  });

  it("counts each sentence's last token when it is a punctuation mark", () => {
    expect(vocab.finals?.[id('.')]).toBe(2);
    expect(vocab.finals?.[id('!')]).toBe(1);
    expect(vocab.finals?.[id('-')]).toBe(0);
  });

  it('counts each mark of the run that closes a sentence once', () => {
    // the closing run of a quotation ('.' then '"'), and one of two full stops
    const quoted = [
      ['ta', '"', 'mu', ',', 'lo', '.', '"'],
      ['ta', 'mu', ',', 'lo', '.', '.'],
    ];
    const v = buildVocab(quoted, quoted);
    v.finals = countSentenceEnds(quoted, v);
    const at = (w: string): number => v.index.get(w) ?? -1;
    expect([v.finals[at('.')], v.finals[at('"')], v.finals[at(',')]]).toEqual([2, 1, 0]);
  });

  describe('punctuation marks', () => {
    // DIALOGUE_TURNS two-turn lines: the second turn opens with a dash, a comma inside each turn
    const turns = Array.from({ length: DIALOGUE_TURNS }, () => ['ta', ',', 'mu', '.', '-', 'lo', ',', 'mu', '.']);
    const v = buildVocab(turns, turns);
    v.finals = countSentenceEnds(turns, v);
    const marks = new SentenceEnds(v);
    const at = (w: string): number => v.index.get(w) ?? -1;
    // marks seen: '.' 2 per line (one closes it), '-' 1, ',' 2: the average mark closes a line one time in five
    const rate = 1 / 5;
    const expected = (seen: number): number => Math.log((FINAL_WORD_PRIOR * rate) / (seen + FINAL_WORD_PRIOR) / rate);

    it('costs a mark the data never closes a sentence with, the more the more often it was seen', () => {
      expect(marks.markCost(at('-'))).toBeCloseTo(expected(DIALOGUE_TURNS), 6);
      expect(marks.markCost(at(','))).toBeCloseTo(expected(2 * DIALOGUE_TURNS), 6);
      expect(marks.markCost(at(','))).toBeLessThan(marks.markCost(at('-')));
      expect(marks.markCost(at('-'))).toBeLessThan(0);
    });

    it('costs nothing for a mark seen too seldom to tell', () => {
      const seldom = FINAL_WORD_PRIOR / MARK_CLOSING_SHARE - FINAL_WORD_PRIOR - 1;
      const few = Array.from({ length: seldom }, () => ['ta', '-', 'mu', '.']);
      const w = buildVocab(few, few);
      w.finals = countSentenceEnds(few, w);
      expect(new SentenceEnds(w).markCost(w.index.get('-') ?? -1)).toBe(0);
    });

    it('costs nothing for a mark that closes sentences, even less often than the average mark', () => {
      // the full stop closes one line per two full stops, the average mark one per five marks
      expect(marks.markCost(at('.'))).toBe(0);
      // questions closing every line raise the average above the full stop's rate (a fifth of it stays free)
      const questions = [...turns, ...Array.from({ length: 4 * DIALOGUE_TURNS }, () => ['ta', 'mu', '?'])];
      const w = buildVocab(questions, questions);
      w.finals = countSentenceEnds(questions, w);
      expect(new SentenceEnds(w).markCost(w.index.get('.') ?? -1)).toBe(0);
    });

    it('costs an answer left open, where the input closes with a mark, by the odds of the data leaving one open', () => {
      // every line closes: no open one in DIALOGUE_TURNS (add-one smoothed)
      expect([v.finals?.[BOS], v.finals?.[EOS]]).toEqual([DIALOGUE_TURNS, 0]);
      expect(marks.openCost()).toBeCloseTo(Math.log(1 / (DIALOGUE_TURNS + 1)), 6);
      expect(marks.endCost(at('mu'), at('lo'), at('mu'), true)).toBeCloseTo(marks.cost(at('mu')) + marks.openCost(), 6);
      // an input left open, or an answer closed, pays nothing for it
      expect(marks.endCost(at('mu'), at('lo'), at('mu'), false)).toBe(marks.cost(at('mu')));
      expect(marks.endCost(at('mu'), at('mu'), at('.'), true)).toBe(marks.cost(at('mu')));
      // half the sentences of the first fixture are open ('… ki', '… mu -pe', '… mu'): even odds cost nothing
      expect([vocab.finals?.[BOS], vocab.finals?.[EOS]]).toEqual([6, 3]);
      expect(ends.openCost()).toBe(0);
    });

    it('judges the last token of an answer and the mark before it, words only by `cost`', () => {
      // '… mu,.': the comma before the full stop; '… mu. -': the dash after it
      expect(marks.endCost(at('mu'), at(','), at('.'), true)).toBeCloseTo(marks.cost(at('mu')) + marks.markCost(at(',')), 6);
      expect(marks.endCost(at('mu'), at('.'), at('-'), true)).toBeCloseTo(marks.cost(at('mu')) + marks.markCost(at('-')), 6);
      expect(marks.endCost(at('mu'), at('mu'), at('.'), true)).toBe(marks.cost(at('mu')));
      expect(marks.markCost(at('mu'))).toBe(0);
    });
  });

  it('finds the last word of model tokens, punctuation and suffix pieces after it aside', () => {
    expect(lastWordAt(['ta', 'mu', PE, '.'])).toBe(1);
    expect(lastWordAt(['ta', 'mu'])).toBe(1);
    expect(lastWordAt([PE, '.'])).toBe(-1);
    expect(lastWordAt([])).toBe(-1);
  });

  it('costs a word the data never ends a sentence with, the more the more often it was seen', () => {
    // seen 8 times, never last: its end rate is the average's drawn down by 8 occurrences that were not ends
    expect(ends.cost(id('ta'))).toBeCloseTo(Math.log(FINAL_WORD_PRIOR / (8 + FINAL_WORD_PRIOR)), 6);
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
    expect(old.markCost(id('-'))).toBe(0);
    expect(old.openCost()).toBe(0);
  });

  it('costs no punctuation mark nor open end when the counts have none (an artifact written when only words were counted)', () => {
    const finals = Float32Array.from(vocab.finals ?? [], (n, x) => (x >= FIRST_WORD_ID && /\p{L}/u.test(vocab.words[x]) ? n : 0));
    const wordsOnly = new SentenceEnds({ ...vocab, finals });
    expect(wordsOnly.markCost(id('-'))).toBe(0);
    expect(wordsOnly.openCost()).toBe(0);
    expect(wordsOnly.cost(id('ta'))).toBe(ends.cost(id('ta')));
  });
});
