/**
 * Word alignment by stems: the links phrase pairs are extracted from come from an EM alignment of each token's first
 * ALIGN_STEM_PREFIX characters (a crude stem), so the inflected forms of a word pool their evidence in a small corpus
 * ('hablaron', 'hablaba', 'hablar' → 'habla'): a form seen once is linked where its stem usually is, not wherever
 * the diagonal puts it. Suffix pieces of a segmented side (subword.ts) and tokens no longer than the prefix are
 * aligned as they are. Only the links come from this alignment: translation probabilities (lexicons, lexical
 * weights) still come from the alignment of the full forms (align.ts).
 */
import { AlignOptions, trainAlignment } from './align';
import { isPiece } from './subword';
import { ALIGN_MAX_LEN, ALIGN_STEM_PREFIX } from './tuning';

/** Word ids (from 1; 0 is NULL) of the alignment forms of tokenized sentences, and the number of ids (NULL included). */
export function alignmentForms(sents: string[][], prefix: number): { ids: Int32Array[]; size: number } {
  const index = new Map<string, number>();
  const ids = sents.map((s) =>
    Int32Array.from(s, (w) => {
      const ch = Array.from(w);
      const form = isPiece(w) || ch.length <= prefix ? w : ch.slice(0, prefix).join('');
      let id = index.get(form);
      if (id === undefined) {
        id = index.size + 1;
        index.set(form, id);
      }
      return id;
    }),
  );
  return { ids, size: index.size + 1 };
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
  const fs = alignmentForms(
    S.map((s) => s.slice(0, ALIGN_MAX_LEN)),
    prefix,
  );
  const ft = alignmentForms(
    T.map((t) => t.slice(0, ALIGN_MAX_LEN)),
    prefix,
  );
  return trainAlignment(fs.ids, ft.ids, fs.size, ft.size, opts, onProgress).links;
}
