import { defaultDecoder } from '../testing/default-decoder';
import { wordOrderCorpus } from '../testing/word-order-corpus';
import { adaptExample, exampleTokens } from './memory-adaptation';
import { trainAgentModel } from './model';
import { tokenize, normalizeToken } from './tokenize';
import type { RetrievalHit } from './types';

describe('memory adaptation', () => {
  const pairs = wordOrderCorpus(['casa verde']);
  const model = trainAgentModel(pairs);
  const decoder = defaultDecoder(model);
  const input = (text: string): { qTok: string[]; surface: string[] } => {
    const surface = tokenize(text);
    return { qTok: surface.map(normalizeToken), surface };
  };
  const hit = (source: string, target: string): RetrievalHit => ({ id: source, score: 1, source, target, matchedTerms: [] });

  it('adapts an example sharing enough of the input the same with or without the minimum overlap', () => {
    const { qTok, surface } = input('Ana pinta una mesa azul hoy.');
    const h = hit('Ana vende una mesa azul hoy.', 'Ana sells a blue table today.');
    const plain = adaptExample(model, decoder, qTok, surface, h, 0, [], exampleTokens(model, h, 0));
    expect(plain).not.toBeNull();
    expect(plain!.overlap).toBeGreaterThan(0.5);
    expect(plain!.tokens.join(' ')).toContain('blue table');
    expect(adaptExample(model, decoder, qTok, surface, h, 0, [], exampleTokens(model, h, 0), 0.5)).toEqual(plain);
  });

  it('reads a span it translates anew as the part of the sentence it is: a name inside it stays a name', () => {
    // 'Pinto' is unknown, one letter from 'pinta' (paints): opening a sentence it may be that word, inside one it is a name
    const { qTok, surface } = input('Ana vende una mesa azul a Pinto hoy.');
    const h = hit('Ana vende una mesa azul a Luis hoy.', 'Ana sells a blue table to Luis today.');
    const adapted = adaptExample(model, decoder, qTok, surface, h, 0)?.tokens.join(' ');
    expect(adapted).toContain('Pinto');
    expect(adapted).not.toContain('paints');
  });

  it('gives up on an example sharing less than the minimum overlap before adapting it', () => {
    const { qTok, surface } = input('Ana pinta una mesa azul hoy.');
    const h = hit('Mi hermano vende un carro grande ayer.', 'My brother sells a big car yesterday.');
    const plain = adaptExample(model, decoder, qTok, surface, h, 0);
    expect(plain).not.toBeNull();
    expect(plain!.overlap).toBeLessThan(0.25);
    expect(adaptExample(model, decoder, qTok, surface, h, 0, [], exampleTokens(model, h, 0), 0.25)).toBeNull();
  });
});
