import { checkTranslationInput, resolveDirection } from './translation-request.rules';

describe('translation request rules', () => {
  it('counts words on whitespace and trims', () => {
    expect(checkTranslationInput('  hola   mundo\n')).toEqual({ text: 'hola   mundo', words: 2 });
    expect(() => checkTranslationInput(Array(51).fill('x').join(' '))).toThrow('Text is too long: 51 words (maximum 50).');
    expect(checkTranslationInput(Array(50).fill('x').join('\t')).words).toBe(50);
    expect(() => checkTranslationInput('x'.repeat(2001))).toThrow('Text is too long: 2,001 characters (maximum 2,000).');
    expect(() => checkTranslationInput('')).toThrow('Please enter text to translate.');
  });

  it('resolves the direction case-insensitively, swapped = reverse', () => {
    const agent = { srcLang: 'spanish', tgtLang: 'guarani' };
    expect(resolveDirection(agent, 'Spanish', ' guarani ')).toBe('forward');
    expect(resolveDirection(agent, 'guarani', 'spanish')).toBe('reverse');
    expect(() => resolveDirection(agent, 'spanish', 'spanish')).toThrow('cannot translate spanish to spanish');
  });
});
