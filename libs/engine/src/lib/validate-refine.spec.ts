import { withoutDoubledEnding } from './validate-refine';

describe('withoutDoubledEnding', () => {
  const tokens = (s: string): string[] => s.split(' ');

  it('drops a full stop written after a closing question or exclamation mark', () => {
    // an answer to a question ending in '?' came out '… ? .' (the language model likes a final full stop)
    expect(withoutDoubledEnding(tokens('¿ ikiri utapi ? .'), tokens('¿ Duerme en la casa ?'))).toEqual(tokens('¿ ikiri utapi ?'));
    expect(withoutDoubledEnding(tokens('¡ Qué frío ! .'), tokens("¡ manq'i !"))).toEqual(tokens('¡ Qué frío !'));
  });

  it('keeps every other ending, and one the input writes so itself', () => {
    expect(withoutDoubledEnding(tokens('Duerme en la casa .'), tokens('ikiri utapi .'))).toEqual(tokens('Duerme en la casa .'));
    expect(withoutDoubledEnding(tokens('¿ Duerme ?'), tokens('ikiri ?'))).toEqual(tokens('¿ Duerme ?'));
    expect(withoutDoubledEnding(tokens('¿ Duerme ? .'), tokens('ikiri ? .'))).toEqual(tokens('¿ Duerme ? .'));
    expect(withoutDoubledEnding(tokens('.'), tokens('?'))).toEqual(tokens('.'));
  });
});
