import fc from 'fast-check';
import { pairwiseChrF } from './chrf-matrix';
import { charNgramCounts, chrfFromStats, chrfStatsFromCounts } from './metrics';

// CI replays one fixed seed (reproducible runs); locally every run explores new cases.
if (process.env['CI']) fc.configureGlobal({ seed: 20_261_124 });

/** The chrF of two texts as metrics.ts computes it, pair by pair. */
const reference = (h: string, r: string): number => chrfFromStats(chrfStatsFromCounts(charNgramCounts(h), charNgramCounts(r)));

describe('pairwiseChrF', () => {
  // made-up texts: repeated n-grams, whitespace runs, characters beyond the BMP and a lone surrogate, short and empty texts
  const texts = [
    'the green house by the river',
    'the  green\thouse, by the river.',
    'a green house',
    'aaaa aaaa',
    'aaa',
    '𝒜bc 𝒜bc dé',
    'x\ud800y \udc00z',
    'ab',
    '',
    '   ',
    'the green house by the river',
  ];

  it('gives exactly the chrF of every ordered pair that metrics.ts gives', () => {
    const m = pairwiseChrF(texts);
    const K = texts.length;
    for (let i = 0; i < K; i++)
      for (let j = 0; j < K; j++) {
        if (i === j) continue;
        expect(m[i * K + j]).toBe(reference(texts[i], texts[j]));
      }
  });

  it('is not symmetric where chrF is not (recall weighs more than precision)', () => {
    const m = pairwiseChrF(['a green house', 'the green house by the river']);
    expect(m[1]).not.toBe(m[2]);
    expect(m[1]).toBe(reference('a green house', 'the green house by the river'));
  });

  it('leaves the diagonal at 0 and answers an empty matrix for fewer than two texts', () => {
    expect(Array.from(pairwiseChrF(['same', 'same']))).toEqual([0, 1, 1, 0]);
    expect(pairwiseChrF(['one']).length).toBe(1);
    expect(pairwiseChrF([]).length).toBe(0);
  });

  it('agrees with metrics.ts on any texts (few letters: many shared n-grams; spaces, tabs, surrogates alone or paired)', () => {
    const unit = fc.constantFrom('a', 'b', 'c', 'á', ' ', '\t', '\n', '\u00a0', '\u2009', '\u3000', '\ufeff', '\u200b', '\ud835', '\udc9c', '𝒜', '.');
    const text = fc.array(unit, { maxLength: 24 }).map((u) => u.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 2, maxLength: 9 }), (texts) => {
        const m = pairwiseChrF(texts);
        const K = texts.length;
        for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) if (i !== j && m[i * K + j] !== reference(texts[i], texts[j])) return false;
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('removes exactly the UTF-16 units that \\s matches (every unit where whitespace is, between two letters)', () => {
    const wrong: string[] = [];
    // \s matches no UTF-16 unit in 0x3001–0xfefe (checked once over all units when this was written)
    for (let c = 0; c < 0x10000; c = c === 0x3100 ? 0xfe00 : c + 1) {
      const unit = String.fromCharCode(c);
      // a removed unit leaves 'ab' itself (chrF 1); any other makes a third character
      if ((pairwiseChrF([`a${unit}b`, 'ab'])[1] === 1) !== /\s/.test(unit)) wrong.push(c.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});
