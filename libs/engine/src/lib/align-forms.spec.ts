import { trainAlignment } from './align';
import { alignmentForms, stemAlignmentLinks } from './align-forms';
import { PIECE_MARK } from './subword';
import { stemCorpus } from '../testing/stem-corpus';

const linked = (links: Int32Array, i: number, j: number): boolean => {
  for (let x = 0; x < links.length; x += 2) if (links[x] === i && links[x + 1] === j) return true;
  return false;
};

describe('alignment by stems', () => {
  it('writes every word as its first characters, keeping suffix pieces and short words whole', () => {
    const { ids, size } = alignmentForms(
      [
        ['hablaron', 'ayer'],
        ['hablaba', `${PIECE_MARK}kuna`, 'con'],
      ],
      5,
    );
    expect(ids[0][0]).toBe(ids[1][0]); // 'habla'
    expect(new Set([...ids[0], ...ids[1]]).size).toBe(4); // habla, ayer, ᐩkuna, con
    expect(size).toBe(5); // NULL included
  });

  it('links a form seen once where its stem is linked, where the alignment of full forms follows the diagonal', () => {
    const { S, T } = stemCorpus();
    const k = S.length - 1;
    const links = stemAlignmentLinks(S, T, { iterations: 5 }, undefined, 5);
    expect(linked(links[k], 2, 1)).toBe(true); // hablaron - rima
    expect(linked(links[k], 1, 2)).toBe(true); // ayer - qayna
    // the same sentences aligned by their full forms: the once-seen verb has no evidence of its own
    const vs = new Map<string, number>();
    const vt = new Map<string, number>();
    const ids = (s: string[], v: Map<string, number>): Int32Array => Int32Array.from(s, (w) => v.get(w) ?? v.set(w, v.size + 1).get(w)!);
    const full = trainAlignment(
      S.map((s) => ids(s, vs)),
      T.map((t) => ids(t, vt)),
      vs.size + 1,
      vt.size + 1,
      { iterations: 5 },
    ).links;
    expect(linked(full[k], 2, 1)).toBe(false);
    expect(linked(full[k], 2, 2)).toBe(true); // hablaron - qayna
  });
});
