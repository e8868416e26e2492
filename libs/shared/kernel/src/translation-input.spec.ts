import { checkTranslationInput } from './translation-input';

describe('checkTranslationInput (spec §5/§9: 50 words, 2,000 characters; the one check of gateway and translation)', () => {
  it('accepts up to the limits, trims and counts words on whitespace', () => {
    expect(checkTranslationInput('  hola   mundo\n')).toEqual({ text: 'hola   mundo', words: 2 });
    expect(checkTranslationInput(Array(50).fill('x').join('\t')).words).toBe(50);
    expect(checkTranslationInput('a'.repeat(2000)).text).toHaveLength(2000);
  });

  it('refuses blank, too many words and too many characters with the spec texts (400)', () => {
    expect(() => checkTranslationInput('   ')).toThrow('Please enter text to translate.');
    expect(() => checkTranslationInput(Array(51).fill('x').join(' '))).toThrow('Text is too long: 51 words (maximum 50).');
    let error: unknown;
    try {
      checkTranslationInput('x'.repeat(2001));
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ status: 400, code: 'text_too_long', message: 'Text is too long: 2,001 characters (maximum 2,000).' });
  });
});
