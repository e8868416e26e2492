import fc from 'fast-check';
import {
  capitalized,
  capitalizedInside,
  capitalizedInsideLine,
  detokenize,
  foldToken,
  isLiteralToken,
  isNumberToken,
  isWordToken,
  normalizeToken,
  titleCased,
  tokenize,
} from './tokenize';

// CI replays one fixed seed (reproducible runs); locally every run explores new cases.
if (process.env['CI']) fc.configureGlobal({ seed: 20_261_124 });

describe('capitalizedInside', () => {
  it('is true for a capitalized word inside a sentence only, not for a sentence opener', () => {
    const line = ['Vivo', 'en', 'Lima', '.', 'Ella', 'canta', '¿', 'Dónde', '?'];
    expect(line.map((_, i) => capitalizedInside(line, i))).toEqual([false, false, true, false, false, false, false, false, false]);
    // the whole line at once says the same
    expect(capitalizedInsideLine(line)).toEqual(line.map((_, i) => capitalizedInside(line, i)));
  });

  it('is false everywhere in a line written in title case (a heading), where capitals mark no names', () => {
    const heading = tokenize('Informe Anual de la Comunidad Asháninka');
    expect(titleCased(heading)).toBe(true);
    expect(heading.map((_, i) => capitalizedInside(heading, i)).some(Boolean)).toBe(false);
    expect(capitalizedInsideLine(heading).some(Boolean)).toBe(false);
    expect(titleCased(tokenize('Mi Madre Come Pan Hoy'))).toBe(true);
    // a sentence with names, a long word in lower case, or too few capitalized words is no heading
    expect(titleCased(tokenize('La Sociedad Maennerchor está financiada por Bill Gates.'))).toBe(false);
    expect(titleCased(tokenize('Bill Gates'))).toBe(false);
    expect(titleCased(tokenize('Vivo en Lima con Ana y Luis.'))).toBe(false);
  });
});

describe('token tests', () => {
  // the patterns they stand for, whatever the first character (ASCII ones are read directly)
  const L = '\\p{L}\\p{M}\\p{N}ʼꞌꞋˀ';
  const reference = {
    word: (t: string): boolean => new RegExp(`^[${L}]`, 'u').test(t),
    number: (t: string): boolean => /^\p{N}/u.test(t),
    capital: (t: string): boolean => /^\p{Lu}/u.test(t),
  };

  it('answer as the Unicode-class patterns do, for any token', () => {
    const samples = ['', ' ', 'a', 'Z', '9', '_', '@', 'Ángel', 'ñandu', 'ʼa', 'ꞌu', '٣', 'Ⅻ', '𝐀bc', 'ﬁ', '\u0301a', 'www.x.org', 'a@b.co', 'I.U.'];
    const token = fc.oneof(fc.constantFrom(...samples), fc.string({ unit: 'binary', maxLength: 4 }), fc.string({ unit: 'grapheme-ascii', maxLength: 4 }));
    fc.assert(
      fc.property(token, (t) => {
        expect([isWordToken(t), isNumberToken(t), capitalized(t)]).toEqual([reference.word(t), reference.number(t), reference.capital(t)]);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('tokenize', () => {
  it('keeps glottal apostrophes inside Guaraní / Quechua words and splits punctuation', () => {
    expect(tokenize("Mba'éichapa, che ra'a?")).toEqual(["Mba'éichapa", ',', 'che', "ra'a", '?']);
    expect(tokenize('p’unchaw allinmi.')).toEqual(['p’unchaw', 'allinmi', '.']);
  });

  it('answers a new array each time, the same tokens for a text seen before even after its last answer was changed', () => {
    const first = tokenize('Mba’éichapa reiko?');
    first.push('changed');
    first[0] = 'x';
    const again = tokenize('Mba’éichapa reiko?');
    expect(again).toEqual(['Mba’éichapa', 'reiko', '?']);
    expect(again).not.toBe(tokenize('Mba’éichapa reiko?'));
    for (let i = 0; i < 100; i++) expect(tokenize(`palabra${i} otra`)).toEqual([`palabra${i}`, 'otra']);
    expect(tokenize('Mba’éichapa reiko?')).toEqual(['Mba’éichapa', 'reiko', '?']);
  });

  it('rejoins glottal stops written detached between letters', () => {
    expect(tokenize('manq ’ a uka')).toEqual(['manq’a', 'uka']);
  });

  it('treats modifier-letter glottal stops (ʼ ꞌ) as letters anywhere', () => {
    expect(tokenize('ʼnaꞌa ñuꞌu')).toEqual(['ʼnaꞌa', 'ñuꞌu']);
  });

  it('applies NFC so composed and decomposed forms tokenize the same', () => {
    const decomposed = 'n\u0303e\u0308e'; // ñëe written with combining marks
    expect(tokenize(decomposed)).toEqual(['ñëe']);
    expect(tokenize(decomposed)[0]).toBe('ñëe'.normalize('NFC'));
  });

  it('splits Spanish inverted punctuation and keeps intra-word hyphens', () => {
    expect(tokenize('¿Oúpa República-pe?')).toEqual(['¿', 'Oúpa', 'República-pe', '?']);
  });

  it('keeps diacritics in tokens and folds them only for matching', () => {
    expect(normalizeToken('Ñe’ẽ')).toBe("ñe'ẽ");
    expect(foldToken('Ñe’ẽ')).toBe("ne'e");
  });

  it('folds ASCII and non-ASCII tokens alike: lower case, apostrophes unified, marks removed after NFD, NFC', () => {
    const full = (t: string): string =>
      normalizeToken(t)
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .normalize('NFC');
    const unit = fc.constantFrom('a', 'Z', '7', "'", '`', '´', '’', 'ñ', 'Ñ', 'e\u0303', 'ẽ', 'ʼ', '-', '\u0301', 'İ', 'ß');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (u) => foldToken(u.join('')) === full(u.join(''))),
      { numRuns: 500 },
    );
    expect(foldToken('Mba`E')).toBe("mba'e");
  });

  it('keeps URLs, e-mail addresses, dates, times and numbers with separators as single literal tokens', () => {
    const toks = tokenize('Ver https://gaia.example/a?b=1. El 12/03/2020 a las 10:30 pagó 1.500,75 a ana@correo.example.');
    expect(toks).toEqual([
      'Ver',
      'https://gaia.example/a?b=1',
      '.',
      'El',
      '12/03/2020',
      'a',
      'las',
      '10:30',
      'pagó',
      '1.500,75',
      'a',
      'ana@correo.example',
      '.',
    ]);
    expect(toks.filter(isLiteralToken)).toEqual(['https://gaia.example/a?b=1', '12/03/2020', '10:30', '1.500,75', 'ana@correo.example']);
  });

  it('keeps an abbreviation of capitals with full stops (I.U., EE.UU.) as one literal token', () => {
    const toks = tokenize('Eres importante para I.U. y vives en EE.UU. desde 2019. A. Pérez no.');
    expect(toks).toEqual(['Eres', 'importante', 'para', 'I.U.', 'y', 'vives', 'en', 'EE.UU.', 'desde', '2019', '.', 'A', '.', 'Pérez', 'no', '.']);
    expect(toks.filter(isLiteralToken)).toEqual(['I.U.', 'EE.UU.', '2019']);
  });

  it('detokenizes with conventional punctuation spacing', () => {
    expect(detokenize(['¿', 'Mba', "'", 'e', '?'])).toBe("¿Mba ' e?");
    expect(detokenize(['hola', ',', 'amigo', '.'])).toBe('hola, amigo.');
  });
});
