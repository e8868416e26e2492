import { withoutDoubledEnding } from './validate-refine';

describe('withoutDoubledEnding', () => {
  const tokens = (s: string): string[] => s.split(' ');

  it('drops a full stop written after a closing question or exclamation mark', () => {
    // a Guarani answer to '¿Permaneció en Augusta?' came out '¿ Mba'eicha en Augusta ? .'
    expect(withoutDoubledEnding(tokens("¿ Mba'eicha en Augusta ? ."), tokens('¿ Permaneció en Augusta ?'))).toEqual(tokens("¿ Mba'eicha en Augusta ?"));
    expect(withoutDoubledEnding(tokens('¡ Qué frío ! .'), tokens('¡ Ro !'))).toEqual(tokens('¡ Qué frío !'));
  });

  it('keeps every other ending, and one the input writes so itself', () => {
    expect(withoutDoubledEnding(tokens('Duerme en la casa .'), tokens('ikiri utapi .'))).toEqual(tokens('Duerme en la casa .'));
    expect(withoutDoubledEnding(tokens('¿ Duerme ?'), tokens('ikiri ?'))).toEqual(tokens('¿ Duerme ?'));
    expect(withoutDoubledEnding(tokens('¿ Duerme ? .'), tokens('ikiri ? .'))).toEqual(tokens('¿ Duerme ? .'));
    expect(withoutDoubledEnding(tokens('.'), tokens('?'))).toEqual(tokens('.'));
  });
});
