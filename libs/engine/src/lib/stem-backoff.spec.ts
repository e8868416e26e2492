import { AlignmentModel, trainAlignment } from './align';
import { stemAlignment } from './align-forms';
import { backOffToStems, wordCounts } from './stem-backoff';
import { stemCorpus } from '../testing/stem-corpus';

/** Word ids from 1 (0 is NULL) and the words by id. */
function vocab(sents: string[][]): { ids: Int32Array[]; words: string[] } {
  const index = new Map<string, number>();
  const words = [''];
  const ids = sents.map((s) =>
    Int32Array.from(s, (w) => {
      let id = index.get(w);
      if (id === undefined) {
        id = words.length;
        index.set(w, id);
        words.push(w);
      }
      return id;
    }),
  );
  return { ids, words };
}

describe('stem back-off of word translation probabilities', () => {
  const { S, T } = stemCorpus();
  const vs = vocab(S);
  const vt = vocab(T);
  const learn = (): AlignmentModel => trainAlignment(vs.ids, vt.ids, vs.words.length, vt.words.length, { iterations: 5 }).model;
  const stems = stemAlignment(S, T, vs.words, vt.words, { iterations: 5 });
  const nS = wordCounts(vs.ids, vs.words.length);
  const nT = wordCounts(vt.ids, vt.words.length);
  const pF = (m: AlignmentModel, s: string, t: string): number => m.tF[m.index.get(vs.words.indexOf(s), vt.words.indexOf(t))];

  it('moves a once-seen form towards what its stem translates to', () => {
    const am = learn();
    expect(pF(am, 'hablaron', 'rima')).toBeLessThan(pF(am, 'hablaron', 'qayna'));
    backOffToStems(am, stems, nS, nT);
    expect(pF(am, 'hablaron', 'rima')).toBeGreaterThan(pF(am, 'hablaron', 'qayna'));
  });

  it('keeps the total probability of each word', () => {
    const before = learn();
    const after = learn();
    backOffToStems(after, stems, nS, nT);
    const mass = (m: AlignmentModel, s: string): number =>
      vt.words.reduce((a, t) => a + (m.index.get(vs.words.indexOf(s), vt.words.indexOf(t)) === -1 ? 0 : pF(m, s, t)), 0);
    expect(mass(after, 'hablaron')).toBeCloseTo(mass(before, 'hablaron'), 5);
  });

  it('changes a frequent word less than a rare one, and nothing with weight 0', () => {
    const before = learn();
    const after = learn();
    backOffToStems(after, stems, nS, nT);
    const change = (s: string, t: string): number => Math.abs(pF(after, s, t) - pF(before, s, t)) / pF(before, s, t);
    expect(change('ellos', 'paykuna')).toBeLessThan(change('hablaron', 'rima'));
    const same = learn();
    backOffToStems(same, stems, nS, nT, 0);
    expect(Array.from(same.tF)).toEqual(Array.from(before.tF));
    expect(Array.from(same.tR)).toEqual(Array.from(before.tR));
  });
});
