import { EXPLANATION_MAX_EXAMPLES, EXPLANATION_TEXT_MAX } from '@gaia/contracts';
import { clampConfidence, toExplanation } from './explanation';

describe('answer explanation', () => {
  it('lists the built-in engine provenance (examples, lexicon entries) and the glossary terms applied', () => {
    const e = toExplanation(
      {
        strategy: 'decoder',
        examples: [{ id: '3', score: 0.8, source: "mba'éichapa", target: 'hola' }],
        lexicon: [{ source: "ka'a", target: 'hierba', prob: 0.6 }],
      },
      [{ term: "tembi'u", translation: 'comida' }],
    );
    expect(e).toEqual({
      examples: [{ source: "mba'éichapa", target: 'hola', score: 0.8 }],
      lexicon: [{ source: "ka'a", target: 'hierba', prob: 0.6 }],
      glossary: [{ term: "tembi'u", translation: 'comida' }],
    });
  });

  it('keeps to the contract limits and ignores what is not an example (LLM ids, unknown shapes)', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ source: 'x'.repeat(EXPLANATION_TEXT_MAX + 10), target: `t${i}`, score: i }));
    const e = toExplanation({ examples: [...many, 'id-only'], lexicon: ['term'] });
    expect(e.examples).toHaveLength(EXPLANATION_MAX_EXAMPLES);
    expect(e.examples[0].source).toHaveLength(EXPLANATION_TEXT_MAX);
    expect(e.lexicon).toEqual([]);
    expect(toExplanation(null)).toEqual({ examples: [], lexicon: [], glossary: [] });
  });

  it('confidence stays in 0..1', () => {
    expect(clampConfidence(1.2)).toBe(1);
    expect(clampConfidence(-0.1)).toBe(0);
    expect(clampConfidence(Number.NaN)).toBe(0);
    expect(clampConfidence(0.42)).toBe(0.42);
  });
});
