import { growDiagFinalAnd, trainAlignment } from './align';
import { modelTokens } from './vocabulary';
import { toyCorpus, TOY_NOUNS, TOY_VERBS } from '../testing/toy-corpus';

function vocab(sents: string[][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of sents) for (const w of s) if (!m.has(w)) m.set(w, m.size + 1); // 0 = NULL
  return m;
}

describe('EM word alignment', () => {
  const pairs = toyCorpus();
  const S = pairs.map((p) => modelTokens(p.source));
  const T = pairs.map((p) => modelTokens(p.target));
  const vs = vocab(S);
  const vt = vocab(T);
  const sid = S.map((s) => Int32Array.from(s.map((w) => vs.get(w)!)));
  const tid = T.map((s) => Int32Array.from(s.map((w) => vt.get(w)!)));
  const { model, links } = trainAlignment(sid, tid, vs.size + 1, vt.size + 1, { iterations: 8 });
  const pTgivenS = (s: string, t: string): number => {
    const p = model.index.get(vs.get(s)!, vt.get(t)!);
    return p === -1 ? 0 : model.tF[p];
  };
  const pSgivenT = (s: string, t: string): number => {
    const p = model.index.get(vs.get(s)!, vt.get(t)!);
    return p === -1 ? 0 : model.tR[p];
  };

  it('learns the toy lexicon in both directions', () => {
    for (const [es, xx] of Object.entries({ ...TOY_NOUNS, ...TOY_VERBS })) {
      const best = [...vt.keys()].sort((a, b) => pTgivenS(es, b) - pTgivenS(es, a))[0];
      expect(best).toBe(xx);
      // reverse model: the source word is best explained by its translation
      const bestT = [...vt.keys()].sort((a, b) => pSgivenT(es, b) - pSgivenT(es, a))[0];
      expect(bestT).toBe(xx);
    }
  });

  it('symmetrized links connect content words despite the SOV reordering', () => {
    const k = pairs.findIndex((p) => p.source === 'el gato come en la casa.');
    const L = links[k];
    const has = (i: number, j: number): boolean => {
      for (let x = 0; x < L.length; x += 2) if (L[x] === i && L[x + 1] === j) return true;
      return false;
    };
    // el gato come en la casa .  →  misi utapi manq'i .
    expect(has(1, 0)).toBe(true); // gato - misi
    expect(has(2, 2)).toBe(true); // come - manq'i
    expect(has(5, 1)).toBe(true); // casa - utapi
    expect(has(6, 3)).toBe(true); // . - .
  });

  it('grow-diag-final-and keeps the intersection and grows to neighbours', () => {
    // 2x2, fwd: t0->s0, t1->s0 ; rev: s0->t0, s1->t1
    const l = growDiagFinalAnd(2, 2, Int32Array.from([0, 0]), Int32Array.from([0, 1]));
    expect(Array.from(l)).toEqual([0, 0, 0, 1, 1, 1]);
  });
});
