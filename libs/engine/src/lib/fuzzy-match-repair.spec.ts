import { wordOrderCorpus } from '../testing/word-order-corpus';
import { defaultDecoder } from '../testing/default-decoder';
import { differingSpans, repairFuzzyMatch } from './fuzzy-match-repair';
import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { normalizeToken, tokenize } from './tokenize';
import { Translator } from './translator';

describe('differingSpans', () => {
  const q = 'a b c d e f'.split(' ');

  it('finds the spans where a near duplicate differs, with the token edit distance', () => {
    expect(differingSpans(q, 'a x c d e f'.split(' '), 2)).toEqual({ spans: [{ q: 1, qe: 2, h: 1, he: 2 }], distance: 1 });
    // a word the example lacks (insertion) and one the input lacks (deletion)
    expect(differingSpans(q, 'a c d e y f'.split(' '), 2)).toEqual({
      spans: [
        { q: 1, qe: 2, h: 1, he: 1 },
        { q: 5, qe: 5, h: 4, he: 5 },
      ],
      distance: 2,
    });
  });

  it('gives up beyond the distance and counts locked input tokens (glossary terms) as differing', () => {
    expect(differingSpans(q, 'x y c d z f'.split(' '), 2)).toBeNull();
    const locked = new Uint8Array(6);
    locked[3] = 1;
    expect(differingSpans(q, q, 1, locked)).toEqual({ spans: [{ q: 3, qe: 4, h: 3, he: 4 }], distance: 1 });
  });
});

describe('fuzzy-match repair', () => {
  // Spanish puts the adjective after the noun, English before it; "casa verde" is never seen, so no phrase reorders it
  const pairs = wordOrderCorpus(['casa verde']);
  const model = trainAgentModel(pairs);
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(model, index);

  it('reads the differing span as the part of the sentence it is: a name inside it stays a name', () => {
    // 'Pinto' is unknown, one letter from 'pinta' (paints): opening a sentence it may be that word, inside one it is a name
    const text = 'Ana vende una mesa azul a Pinto hoy.';
    const surface = tokenize(text);
    const h = { id: 'luis', score: 1, source: 'Ana vende una mesa azul a Luis hoy.', target: 'Ana sells a blue table to Luis today.', matchedTerms: [] };
    const repaired = repairFuzzyMatch(model, defaultDecoder(model), surface.map(normalizeToken), surface, h, 0)?.tokens.join(' ');
    expect(repaired).toContain('Pinto');
    expect(repaired).not.toContain('paints');
  });

  it('repairs a near duplicate in place: only the translation of the differing word changes, where the example had it', () => {
    const r = tr.translateText('Mi madre pinta una casa verde ayer.');
    expect(r.translation).toBe('My mother paints a green house yesterday.');
    expect(r.provenance.strategy).toBe('fuzzy-match-repair');
    // the decoder alone keeps the Spanish order
    expect(r.candidates.find((c) => c.strategy === 'phrase-decoder')?.text).toContain('house green');
    const other = tr.translateText('Ana compra una casa verde hoy.');
    expect(other.candidates).toContainEqual(expect.objectContaining({ strategy: 'fuzzy-match-repair', text: 'Ana buys a green house today.' }));
  });

  it('repairs a glossary term as a differing span', () => {
    const r = tr.translateText('Mi madre pinta una casa verde ayer.', { glossary: [{ source: 'verde', target: 'emerald' }] });
    expect(r.candidates).toContainEqual(expect.objectContaining({ strategy: 'fuzzy-match-repair', text: 'My mother paints a emerald house yesterday.' }));
    expect(r.translation).toContain('emerald');
  });

  it('leaves an example that is not a near duplicate to memory adaptation', () => {
    const r = tr.translateText('Ana compra una casa verde');
    expect(r.candidates.some((c) => c.strategy === 'fuzzy-match-repair')).toBe(false);
  });
});
