import * as fs from 'node:fs';
import * as path from 'node:path';
import { corpusBleu, corpusChrF, sentenceChrF } from './metrics';

const DATA = path.resolve(__dirname, '../../../../../shared/data/americasnlp2021/baseline-dev');
const VECTORS: Record<string, number> = {
  aym: 0.1885,
  cni: 0.1038,
  gn: 0.2204,
  nah: 0.1823,
  oto: 0.0517,
  quy: 0.3302,
  shp: 0.1387,
  tar: 0.0458,
};

describe('chrF / BLEU basics', () => {
  it('is 1 for identical text and 0 for disjoint text', () => {
    expect(sentenceChrF('mba’éichapa', 'mba’éichapa')).toBeCloseTo(1, 10);
    expect(sentenceChrF('aaaa', 'zzzz')).toBeCloseTo(0, 10);
  });

  it('ignores whitespace and weights recall more than precision (beta 2)', () => {
    expect(sentenceChrF('uta pi', 'utapi')).toBeCloseTo(1, 10);
    const shortHyp = sentenceChrF('abcdef', 'abcdefghijkl');
    const longHyp = sentenceChrF('abcdefghijklmnopqrstuvwx', 'abcdefghijkl');
    expect(longHyp).toBeGreaterThan(shortHyp);
  });

  it('reports the balanced F-score with beta 1 (symmetric in hypothesis and reference)', () => {
    const a = ['abcdef ghij'];
    const b = ['abcdefghijklmnop'];
    expect(corpusChrF(a, b, 1)).toBeCloseTo(corpusChrF(b, a, 1), 10);
    expect(corpusChrF(a, b, 1)).toBeGreaterThan(corpusChrF(a, b));
  });

  it('matches a hand-computed chrF value', () => {
    // hyp "ab", ref "abc": order1 P=2/2 R=2/3; order2 P=1/1 R=1/2; orders 3..6 absent in hyp.
    const P = (1 + 1) / 2;
    const R = (2 / 3 + 1 / 2) / 2;
    expect(sentenceChrF('ab', 'abc')).toBeCloseTo((5 * P * R) / (4 * P + R), 10);
  });

  it('computes corpus BLEU with brevity penalty', () => {
    expect(corpusBleu(['the cat sat on the mat'], ['the cat sat on the mat'])).toBeCloseTo(1, 10);
    const bp = corpusBleu(['the cat sat on the'], ['the cat sat on the mat']);
    expect(bp).toBeCloseTo(Math.exp(1 - 6 / 5), 10);
    expect(corpusBleu(['x y z w'], ['a b c d'])).toBe(0);
  });
});

const hasData = fs.existsSync(DATA);
if (!hasData) {
  console.warn(`chrF test vectors skipped: ${DATA} is absent`);
}
(hasData ? describe : describe.skip)('chrF test vectors (AmericasNLP 2021 official baseline on dev)', () => {
  const read = (f: string): string[] => {
    const lines = fs.readFileSync(path.join(DATA, f), 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  };
  for (const [code, expected] of Object.entries(VECTORS)) {
    it(`reproduces corpus chrF for ${code} to 4 decimals`, () => {
      const score = corpusChrF(read(`${code}.hyp`), read(`${code}.ref`));
      expect(score.toFixed(4)).toBe(expected.toFixed(4));
    });
  }
});
