/**
 * Where sentences end, read by the decoder and the candidate scorer so an answer ends as its language's sentences do:
 *  - on a word: how much less often than the average word the output language's data ends a sentence with one of its
 *    most frequent words (the last word, punctuation and suffix pieces after it aside): not on an article or
 *    preposition the language never ends with ('… ve el.': the phrase of a verb brought the article of the object that
 *    followed it). The language model alone does not tell it: after a word followed by many different words ('el'),
 *    Kneser-Ney smoothing gives an unseen full stop nearly its continuation probability, which is high;
 *  - on a mark: how much less often than the average punctuation mark the data closes a sentence with it ('… . -',
 *    '… año,.');
 *  - open, where the input closes with a mark: how rarely the data leaves a sentence open.
 */
import { BOS, EOS } from './lm';
import { isPiece } from './subword';
import { isWordToken } from './tokenize';
import { DROPPABLE_RANK, FINAL_WORD_PRIOR, MARK_CLOSING_SHARE } from './tuning';
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

/**
 * Per id of a side's vocabulary, the sentences of the data (model tokens) whose last word it is or, for a punctuation
 * mark, whose closing run of marks (the tokens after the last word token) it is in.
 */
export function countSentenceEnds(sentences: readonly (readonly string[])[], side: SideVocab): Float32Array {
  const finals = new Float32Array(side.words.length);
  const closing = new Set<number>();
  for (const s of sentences) {
    const at = lastWordAt(s);
    if (at >= 0) finals[side.index.get(s[at]) ?? 0]++;
    closing.clear();
    for (let j = s.length - 1; j >= 0 && !isWordToken(s[j]); j--) closing.add(side.index.get(s[j]) ?? 0);
    for (const id of closing) finals[id]++;
    // the sentence-start id counts the sentences, the sentence-end id those left open (ending on a word)
    if (s.length) {
      finals[BOS]++;
      if (isWordToken(s[s.length - 1])) finals[EOS]++;
    }
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
  /** the share of the words' occurrences (suffix pieces aside) that end a sentence, and of the punctuation marks'
   *  (0: the vocabulary has no such counts); counted over the vocabulary when first needed, not when an agent loads */
  private rates: { words: number; marks: number } | undefined;

  constructor(private readonly side: SideVocab) {}

  private get rate(): number {
    return (this.rates ??= this.countRates()).words;
  }

  private get markRate(): number {
    return (this.rates ??= this.countRates()).marks;
  }

  private countRates(): { words: number; marks: number } {
    const { finals, words: vocab, freq } = this.side;
    const ends = [0, 0];
    const seen = [0, 0];
    if (finals)
      for (let id = FIRST_WORD_ID; id < finals.length; id++) {
        if (isPiece(vocab[id])) continue;
        const k = isWordToken(vocab[id]) ? 0 : 1;
        ends[k] += finals[id];
        seen[k] += freq[id];
      }
    return { words: ends[0] > 0 ? ends[0] / seen[0] : 0, marks: ends[1] > 0 ? ends[1] / seen[1] : 0 };
  }

  /**
   * What an answer's end costs: its last word (`cost`) and the marks among its last two tokens that close it
   * (`markCost`: the last token if a mark, and the one before if a mark too: '… año,.'), or, with no closing mark
   * where the input has one, leaving it open (`openCost`).
   */
  endCost(lastWord: number, beforeLast: number, lastToken: number, inputCloses: boolean): number {
    const close = this.isMark(lastToken) ? this.markCost(lastToken) + this.markCost(beforeLast) : inputCloses ? this.openCost() : 0;
    return this.cost(lastWord) + close;
  }

  /**
   * At most 0: the log odds of the data leaving a sentence open (ending on a word, no closing mark) rather than closing
   * it (add-one smoothed), where below even: what an answer left open costs when its input closes with a mark ('qari
   * mikun.' came out 'el hombre come' where every sentence of the Spanish data ends with a full stop). 0 when the counts
   * have no sentences (an artifact written before they were counted).
   */
  openCost(): number {
    const finals = this.side.finals;
    if (!finals || finals.length <= EOS || finals[BOS] === 0) return 0;
    const open = finals[EOS];
    return Math.min(0, Math.log((open + 1) / (finals[BOS] - open + 1)));
  }

  private isMark(id: number): boolean {
    return id >= FIRST_WORD_ID && id < this.side.words.length && !isWordToken(this.side.words[id]);
  }

  /**
   * At most 0: for a mark the data closes sentences with less than MARK_CLOSING_SHARE as often as with the average
   * punctuation mark (its closing run of marks holds it; drawn towards the average rate by FINAL_WORD_PRIOR
   * occurrences, like `cost`), the log of how much less often, whatever its rank: an answer does not end on the dash
   * that opens a second speaker's turn inside the data's sentences ('… la casa. -': the full stop's phrase brought it),
   * nor on a comma before its full stop. 0 for a word, for a mark that closes sentences more often than that (a full
   * stop where the data writes several sentences per line, a closing quote or parenthesis), and when the counts have
   * no mark (an artifact written when only words were counted).
   */
  markCost(id: number): number {
    const finals = this.side.finals;
    if (!finals || !this.isMark(id) || id >= finals.length || this.markRate === 0) return 0;
    const smoothed = (finals[id] + FINAL_WORD_PRIOR * this.markRate) / (this.side.freq[id] + FINAL_WORD_PRIOR);
    const ratio = smoothed / this.markRate;
    return ratio < MARK_CLOSING_SHARE ? Math.log(ratio) : 0;
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
