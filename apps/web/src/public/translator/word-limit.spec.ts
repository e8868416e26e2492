import { describe, expect, it } from 'vitest';
import { countWords, formatLanguage, limitWords } from './word-limit';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');

describe('countWords', () => {
  it('splits on any whitespace and ignores leading/trailing blanks', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   \n\t ')).toBe(0);
    expect(countWords('  allin  punchaw\nkachun\t')).toBe(3);
  });
});

describe('limitWords (50-word limit)', () => {
  it('accepts text of up to 50 words unchanged, including trailing whitespace', () => {
    expect(limitWords(words(50))).toBe(words(50));
    expect(limitWords(`${words(50)} `)).toBe(`${words(50)} `);
  });
  it('refuses the 51st word and everything after it', () => {
    expect(limitWords(`${words(50)} w51`)).toBe(words(50));
    expect(countWords(limitWords(words(120)))).toBe(50);
    expect(limitWords(`  ${words(60)}`)).toBe(`  ${words(50)}`);
  });
  it('honours a custom maximum', () => {
    expect(limitWords('a b c d', 2)).toBe('a b');
  });
});

describe('formatLanguage', () => {
  it('capitalises the first letter', () => {
    expect(formatLanguage('quechua')).toBe('Quechua');
    expect(formatLanguage('')).toBe('');
    expect(formatLanguage(undefined)).toBe('');
  });
});
