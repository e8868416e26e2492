/**
 * Word alignment by stems: the links phrase pairs are extracted from come from an EM alignment of each token's first
 * ALIGN_STEM_PREFIX characters (a crude stem), so the inflected forms of a word pool their evidence in a small corpus
 * ('hablaron', 'hablaba', 'hablar' → 'habla'): a form seen once is linked where its stem usually is, not wherever
 * the diagonal puts it. Suffix pieces of a segmented side (subword.ts) and tokens no longer than the prefix are
 * aligned as they are. Only the links come from this alignment: translation probabilities (lexicons, lexical
 * weights) still come from the alignment of the full forms (align.ts).
 */
import { AlignOptions, trainAlignment } from './align';
import type { StemModel } from './stem-backoff';
import { isPiece } from './subword';
import { ALIGN_MAX_LEN, ALIGN_STEM_PREFIX } from './tuning';

/** The alignment form of a token: its first `prefix` characters, or the token itself (a suffix piece, a short word). */
function alignmentForm(w: string, prefix: number): string {
  const ch = Array.from(w);
  return isPiece(w) || ch.length <= prefix ? w : ch.slice(0, prefix).join('');
}

/**
 * Word ids (from 1; 0 is NULL) of the alignment forms of tokenized sentences, the number of ids (NULL included) and
 * the id of each form.
 */
export function alignmentForms(sents: string[][], prefix: number): { ids: Int32Array[]; size: number; index: Map<string, number> } {
  const index = new Map<string, number>();
  const ids = sents.map((s) =>
    Int32Array.from(s, (w) => {
      const form = alignmentForm(w, prefix);
      let id = index.get(form);
      if (id === undefined) {
        id = index.size + 1;
        index.set(form, id);
      }
      return id;
    }),
  );
  return { ids, size: index.size + 1, index };
}

/**
 * Symmetrized links (flat source, target position pairs, as trainAlignment answers them) of tokenized sentence pairs
 * aligned by their stems, on their first ALIGN_MAX_LEN tokens.
 */
export function stemAlignmentLinks(
  S: string[][],
  T: string[][],
  opts: AlignOptions,
  onProgress?: (f: number) => void,
  prefix = ALIGN_STEM_PREFIX,
): Int32Array[] {
  return stemAlignment(S, T, [], [], opts, onProgress, prefix).links;
}

/**
 * The alignment of stems (as stemAlignmentLinks) with its model and the stem id of each vocabulary word
 * (`wordsS[id]`, `wordsT[id]`; -1 for a word in no sentence, 0 for NULL), for the stem back-off (stem-backoff.ts).
 */
export function stemAlignment(
  S: string[][],
  T: string[][],
  wordsS: readonly string[],
  wordsT: readonly string[],
  opts: AlignOptions,
  onProgress?: (f: number) => void,
  prefix = ALIGN_STEM_PREFIX,
): StemModel & { links: Int32Array[] } {
  const fs = alignmentForms(
    S.map((s) => s.slice(0, ALIGN_MAX_LEN)),
    prefix,
  );
  const ft = alignmentForms(
    T.map((t) => t.slice(0, ALIGN_MAX_LEN)),
    prefix,
  );
  const { model, links } = trainAlignment(fs.ids, ft.ids, fs.size, ft.size, opts, onProgress);
  const formsOf = (words: readonly string[], index: Map<string, number>): Int32Array =>
    Int32Array.from(words, (w, id) => (id === 0 ? 0 : (index.get(alignmentForm(w, prefix)) ?? -1)));
  return { model, links, formS: formsOf(wordsS, fs.index), formT: formsOf(wordsT, ft.index) };
}
