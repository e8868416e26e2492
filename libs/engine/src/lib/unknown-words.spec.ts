import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { Translator } from './translator';
import { BORROWING_MIN_RATE } from './tuning';
import type { ParallelPair } from './types';
import { boundedEditDistance, letterMask, missingLetters } from './unknown-words';
import { toyCorpus } from '../testing/toy-corpus';

/** Made-up Spanish-looking words (none ends in 'ión') and made-up words of the invented language, one for each. */
const SPANISH_SYLLABLES = ['ca', 'me', 'lo', 'ti', 'ra', 'pu', 'de', 'sa', 'fo', 'gu', 'be', 'no'];
const SPANISH_ENDINGS = ['ado', 'era', 'illo', 'ente'];
const OWN_SYLLABLES = ['qa', 'wi', 'ku', 'yu', 'ñi', 'ph', 'tsa', 'lla', 'mu', 'kh', 'ts', 'xa'];
/** Made-up Spanish words in 'ción' that the invented language writes as they are (when it borrows them). */
const CION_WORDS = ['plurtación', 'mendación', 'corbición', 'saltución', 'famerción'];

function ownWords(): { spanish: string; own: string }[] {
  const out: { spanish: string; own: string }[] = [];
  for (let i = 0; i < SPANISH_SYLLABLES.length; i++)
    for (let j = 0; j < SPANISH_ENDINGS.length * 4; j++) {
      const k = (i + j + 1) % SPANISH_SYLLABLES.length;
      const spanish = SPANISH_SYLLABLES[i] + SPANISH_SYLLABLES[k] + SPANISH_ENDINGS[j % SPANISH_ENDINGS.length];
      out.push({
        spanish: spanish + (j >= SPANISH_ENDINGS.length ? SPANISH_SYLLABLES[j % SPANISH_SYLLABLES.length] : ''),
        own: `${OWN_SYLLABLES[i]}${OWN_SYLLABLES[k]}kta${j}`,
      });
    }
  return out;
}

/** A language that translates its rare Spanish words, and keeps the 'ción' ones as they are when `borrowsCion`. */
function corpus(borrowsCion: boolean): ParallelPair[] {
  const pairs = toyCorpus();
  for (const { spanish, own } of ownWords()) pairs.push({ id: `own-${spanish}`, source: `el perro mira ${spanish}.`, target: `anu ${own} qhawan.` });
  CION_WORDS.forEach((w, i) =>
    pairs.push({ id: `cion-${w}`, source: `el perro mira ${w}.`, target: `anu ${borrowsCion ? w : `${OWN_SYLLABLES[i]}runa`} qhawan.` }),
  );
  return pairs;
}

describe('unknown words: borrowing of one shape', () => {
  const borrowing = new Translator(trainAgentModel(corpus(true)), new HybridIndex());
  const translating = new Translator(trainAgentModel(corpus(false)), new HybridIndex());
  const unknown = 'dresmoción';

  it('learns from the data that words ending like the borrowed ones are borrowed, although the language borrows little overall', () => {
    expect(borrowing.unknownWords.borrowingRate(0)).toBeGreaterThan(0);
    expect(borrowing.unknownWords.borrowingRate(0)).toBeLessThan(BORROWING_MIN_RATE);
    expect(borrowing.unknownWords.wordBorrowingRate(unknown, 0)).toBeGreaterThanOrEqual(BORROWING_MIN_RATE);
    expect(borrowing.unknownWords.carryKind(unknown, false, 0)).toBe('borrowed');
    // a word of a shape the language translates is not carried
    expect(borrowing.unknownWords.wordBorrowingRate('brasolado', 0)).toBeLessThan(BORROWING_MIN_RATE);
    expect(borrowing.unknownWords.carryKind('brasolado', false, 0)).toBeNull();
  });

  it('carries a borrowed-shape unknown word into the output, still reported as untranslated', () => {
    const r = borrowing.translateText(`el perro mira ${unknown}.`);
    expect(r.translation).toContain(unknown);
    expect(r.untranslated).toEqual([{ start: 14, end: 14 + unknown.length, text: unknown }]);
  });

  it('does not carry a word with a letter the output language never writes, whatever its shape', () => {
    // 'ⴘ' is no letter of the invented language's data: no word of it can be written so
    const foreign = 'dresmⴘción';
    expect(borrowing.unknownWords.wordBorrowingRate(foreign, 0)).toBeGreaterThanOrEqual(BORROWING_MIN_RATE);
    expect(borrowing.unknownWords.carryKind(foreign, false, 0)).toBeNull();
    expect(borrowing.translateText(`el perro mira ${foreign}.`).translation).not.toContain(foreign);
    // a name is carried as it is written, whatever its letters
    expect(borrowing.unknownWords.carryKind('Dresmⴘción', false, 0)).toBe('name');
  });

  it('does not carry it into a language that does not borrow such words', () => {
    expect(translating.unknownWords.borrowingRate(0)).toBe(0);
    expect(translating.unknownWords.carryKind(unknown, false, 0)).toBeNull();
    const r = translating.translateText(`el perro mira ${unknown}.`);
    expect(r.translation).not.toContain(unknown);
    expect(r.untranslated).toEqual([{ start: 14, end: 14 + unknown.length, text: unknown }]);
  });
});

describe('unknown words: bounded edit distance', () => {
  /** The full dynamic program. */
  function levenshtein(a: string, b: string): number {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
    return prev[b.length];
  }

  it('is the distance when it is at most the bound, else the bound plus one', () => {
    expect(boundedEditDistance('yachachiq', 'yachachik', 2)).toBe(1);
    expect(boundedEditDistance('kutimuni', 'kutimurqani', 3)).toBe(3);
    expect(boundedEditDistance('kutimuni', 'kutimurqani', 2)).toBe(3);
    expect(boundedEditDistance('', 'abc', 3)).toBe(3);
    expect(boundedEditDistance('abc', 'abc', 0)).toBe(0);
    // strings over a small alphabet (many near pairs), every bound up to 4: as the full dynamic program says
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = (): string => Array.from({ length: next(9) }, () => 'abc'[next(3)]).join('');
    for (let k = 0; k < 2000; k++) {
      const [a, b, max] = [word(), word(), next(5)];
      expect(boundedEditDistance(a, b, max)).toBe(Math.min(levenshtein(a, b), max + 1));
    }
  });

  it('is never below the letters one word has and the other lacks (the bound the variant search skips words by)', () => {
    expect(missingLetters(letterMask('tanda'), letterMask('tanta'))).toBe(1);
    expect(missingLetters(letterMask('tanta'), letterMask('tanda'))).toBe(0);
    expect(missingLetters(letterMask('kiru'), letterMask('mayu'))).toBe(3);
    expect(missingLetters(letterMask('abc'), letterMask('abcabc'))).toBe(0);
    // letters far apart in the alphabet share a bit of the mask: the bound is lower then, never higher
    let seed = 11;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = (): string => Array.from({ length: next(10) }, () => 'abcdeñáz@'[next(9)]).join('');
    for (let k = 0; k < 2000; k++) {
      const [a, b] = [word(), word()];
      const d = levenshtein(a, b);
      expect(missingLetters(letterMask(a), letterMask(b))).toBeLessThanOrEqual(d);
      expect(missingLetters(letterMask(b), letterMask(a))).toBeLessThanOrEqual(d);
    }
  });
});
