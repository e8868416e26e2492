import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { Translator } from './translator';
import type { ParallelPair } from './types';
import { toyCorpus } from '../testing/toy-corpus';

/** Long rare words of the toy language that its Spanish side never writes (most of them), and two names both sides write. */
const OWN_WORDS = ['tukuykama', 'yachachiq', 'pukllaykuna', 'hatunkaray', 'qhawarisqa', 'mikhunayoq', 'rimanakuy', 'llamkaykuna', 'takiykuna'];
const SPANISH_WORDS = ['mucho', 'maestro', 'juego', 'grande', 'mirado', 'comida', 'charla', 'trabajos', 'cantos'];
const NAMES = ['Rosalinda', 'Fernandez'];

function corpus(): ParallelPair[] {
  const pairs = toyCorpus();
  for (const suffix of ['xa', 'xe', 'xo', 'xu', 'xi', 'xy'])
    OWN_WORDS.forEach((w, i) =>
      pairs.push({ id: `own-${w}-${suffix}`, source: `el perro mira ${SPANISH_WORDS[i]}${suffix}.`, target: `anu ${w}${suffix} qhawan.` }),
    );
  NAMES.forEach((w) => pairs.push({ id: `name-${w}`, source: `el perro mira a ${w}.`, target: `anu ${w} qhawan.` }));
  return pairs;
}

describe('decoder: unknown words that may be loanwords', () => {
  const pairs = corpus();
  const model = trainAgentModel(pairs);
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(model, index);

  it('into the source language prefers the back-off translation of a possible loanword over keeping it: borrowing is rare here', () => {
    // about 4 % of the rare toy words are written on the Spanish side too, so 'jawirakamata' may be a loanword…
    const word = 'jawirakamata';
    expect(tr.unknownWords.carryKind(word, false, 1)).toBe('borrowed');
    expect(tr.unknownWords.borrowingRate(1)).toBeLessThan(0.1);
    // …but it is far likelier an inflected form of 'jawirapi' (en el río), which the decoder reads it as
    expect(tr.unknownWords.stemBackoff(word, 1)).toBe('jawirapi');
    const { candidates } = tr.candidates(`warmi ${word} irnaqi.`, { direction: 'reverse' });
    const decoded = candidates.filter((c) => c.strategy === 'phrase-decoder');
    expect(decoded.length).toBeGreaterThan(1);
    for (const c of decoded) {
      expect(c.text).not.toContain(word);
      expect(c.text).toMatch(/^la mujer en el río trabaja/);
    }
  });
});
