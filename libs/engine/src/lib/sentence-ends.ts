/**
 * Where sentences end: how much less often than the average word the output language's data ends a sentence with one
 * of its most frequent words (the last word of a sentence, punctuation and suffix pieces after it aside). Read by the
 * decoder and the candidate scorer, so an answer does not end on an article or preposition the language never ends a
 * sentence with ('… ve el.': the phrase of a verb brought the article of the object that followed it). The language model alone does not tell it: after a word followed by many different
 * words ('el'), Kneser-Ney smoothing gives an unseen full stop nearly its continuation probability, which is high (a
 * full stop follows many different words).
 */
import { isPiece } from './subword';
import { isWordToken } from './tokenize';
import { DROPPABLE_RANK, FINAL_WORD_PRIOR } from './tuning';
import { FIRST_WORD_ID, type SideVocab } from './vocabulary';

/**
 * Index of the last word of model tokens, -1 if none: the last word token that is no suffix piece (subword.ts). On a
 * side modelled in pieces a word ends a sentence whatever suffixes follow it ('ary ᐩpe .'): judged by its pieces, a
 * stem that usually takes one would seem never to end a sentence, and an answer would get a suffix added to end with.
 */
export function lastWordAt(tokens: readonly string[]): number {
  let at = tokens.length - 1;
  while (at >= 0 && (!isWordToken(tokens[at]) || isPiece(tokens[at]))) at--;
  return at;
}

/** Per word id of a side's vocabulary, the sentences of the data (model tokens) whose last word it is. */
export function countSentenceEnds(sentences: readonly (readonly string[])[], side: SideVocab): Float32Array {
  const finals = new Float32Array(side.words.length);
  for (const s of sentences) {
    const at = lastWordAt(s);
    if (at >= 0) finals[side.index.get(s[at]) ?? 0]++;
  }
  return finals;
}

/** The sentence ends of each vocabulary, shared by a model's decoder and candidate scorer. */
const shared = new WeakMap<SideVocab, SentenceEnds>();

/** The `SentenceEnds` of a side's vocabulary (one per vocabulary). */
export function sentenceEndsOf(side: SideVocab): SentenceEnds {
  let ends = shared.get(side);
  if (!ends) shared.set(side, (ends = new SentenceEnds(side)));
  return ends;
}

export class SentenceEnds {
  /** the share of the words' occurrences (suffix pieces aside) that end a sentence (0: the vocabulary has no
   *  sentence-end counts); counted over the vocabulary when first needed, not when an agent is loaded */
  private rateOf: number | undefined;

  constructor(private readonly side: SideVocab) {}

  private get rate(): number {
    if (this.rateOf === undefined) {
      const { finals, words: vocab, freq } = this.side;
      let ends = 0;
      let words = 0;
      if (finals)
        for (let id = FIRST_WORD_ID; id < finals.length; id++) {
          if (!isWordToken(vocab[id]) || isPiece(vocab[id])) continue;
          ends += finals[id];
          words += freq[id];
        }
      this.rateOf = ends > 0 ? ends / words : 0;
    }
    return this.rateOf;
  }

  /**
   * At most 0: the log of how much less often than the average word the data ends a sentence with word `id` (its
   * end count over its count, both drawn towards the average rate by FINAL_WORD_PRIOR occurrences), for one of the
   * DROPPABLE_RANK most frequent words; 0 for a word that ends sentences at least as often, for a rarer word, for a
   * word the vocabulary lacks (a copy) and when the counts are unknown (an artifact written before they were stored).
   */
  cost(id: number): number {
    const finals = this.side.finals;
    // only the language's most frequent words (articles, prepositions, conjunctions…) are judged: charging rarer ones
    // (a content word the data happens not to end with) had answers add a word to end with instead
    if (!finals || id < FIRST_WORD_ID || id >= finals.length || id >= DROPPABLE_RANK || this.rate === 0) return 0;
    const smoothed = (finals[id] + FINAL_WORD_PRIOR * this.rate) / (this.side.freq[id] + FINAL_WORD_PRIOR);
    return Math.min(0, Math.log(smoothed / this.rate));
  }
}
