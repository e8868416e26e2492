import { HybridIndex } from './hybrid-index';
import { lookupLexicon } from './lexicon';
import { trainAgentModel } from './model';
import { deserializeModel, serializeModel } from './model-codec';
import { joinPieces, learnSegmenters, PIECE_MARK, segmentTokens } from './subword';
import { Translator } from './translator';
import type { ParallelPair } from './types';
import { BORROWED_NOUNS } from '../testing/borrowed-nouns';

/** Invented agglutinative language: plural -kuna and locative -pi are suffixes, stacked as -kunapi. */
const NOUNS: [string, string, string][] = [
  ['casa', 'casas', 'uta'],
  ['perro', 'perros', 'anu'],
  ['río', 'ríos', 'jawira'],
  ['campo', 'campos', 'yapu'],
  ['niño', 'niños', 'wawa'],
  ['árbol', 'árboles', 'quqa'],
  ['monte', 'montes', 'urqu'],
  ['pueblo', 'pueblos', 'marka'],
];
const VERBS: [string, string][] = [
  ['duermo', 'ikini'],
  ['canto', "q'uchuni"],
  ['trabajo', 'irnaqani'],
];

/** Word-list entries of plural words: Spanish words ending in -es (its spelling), inflected words of the other side. */
const PLURALS: [string, string][] = [
  ['flores', 'tika'],
  ['mujeres', 'warmikuna'],
  ['colores', 'llimpikuna'],
  ['señores', 'taytakuna'],
  ['lunes', 'killachaw'],
  ['meses', 'killakuna'],
];

function corpus(): ParallelPair[] {
  const out: ParallelPair[] = PLURALS.map(([s, t], i) => ({ id: `plural-${i}`, source: `${s}.`, target: `${t}.` }));
  for (const [sg, pl, stem] of NOUNS) {
    const art = sg === 'casa' ? 'la' : 'el';
    const arts = sg === 'casa' ? 'las' : 'los';
    // word-list entries, as many low-resource corpora have
    out.push({ id: String(out.length), source: `${sg}.`, target: `${stem}.` });
    for (const [v, tv] of VERBS) {
      out.push({ id: String(out.length), source: `veo ${art} ${sg} y ${v}.`, target: `${stem} rikuni ${tv}.` });
      out.push({ id: String(out.length), source: `veo ${arts} ${pl} y ${v}.`, target: `${stem}kuna rikuni ${tv}.` });
      out.push({ id: String(out.length), source: `${v} en ${art} ${sg}.`, target: `${stem}pi ${tv}.` });
      // 'en los pueblos' (markakunapi) is never seen: it has to be composed from its pieces
      if (stem !== 'marka') out.push({ id: String(out.length), source: `${v} en ${arts} ${pl}.`, target: `${stem}kunapi ${tv}.` });
    }
  }
  return out;
}

describe('subword segmentation of the agglutinative side', () => {
  const pairs = corpus();
  const tok = (s: string): string[] =>
    s
      .toLowerCase()
      .split(/\s+|(?=[.])/)
      .filter(Boolean);

  // one agent learned from the corpus for the tests that translate (learning is deterministic, the tests only read it)
  const model = trainAgentModel(pairs);
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(model, index);

  it('learns the suffixes of the more inflected side only, and splits and joins words at them', () => {
    const [src, tgt] = learnSegmenters(
      pairs.map((p) => tok(p.source)),
      pairs.map((p) => tok(p.target)),
    );
    expect(src).toBeNull();
    expect(tgt).toEqual(expect.arrayContaining(['kuna', 'pi', 'kunapi']));
    const known = (w: string): boolean => ['marka', 'markakuna'].includes(w);
    // the longest suffix that leaves a known stem: 'kunapi' after 'marka'
    const pieces = segmentTokens(
      ['Markakunapi', 'ikini', '.'].map((w) => w.toLowerCase()),
      tgt,
      known,
      ['Markakunapi', 'ikini', '.'],
    );
    expect(pieces).toEqual(['Marka', `${PIECE_MARK}kunapi`, 'ikini', '.']);
    expect(joinPieces(pieces)).toEqual(['Markakunapi', 'ikini', '.']);
    // a word whose remainder is no known stem stays whole
    expect(segmentTokens(['wasipi'], tgt, known)).toEqual(['wasipi']);
  });

  it('splits an unknown word with a long unknown stem at its long suffixes only', () => {
    const suffixes = ['kunapi', 'kuna', 'pi'];
    const known = (w: string): boolean => ['marka', 'llaqtachakuna'].includes(w);
    // a bound root never seen alone keeps the suffixes of at least three characters apart
    expect(segmentTokens(['kallpachaykunapi'], suffixes, known)).toEqual(['kallpachay', `${PIECE_MARK}kunapi`]);
    expect(segmentTokens(['kallpachaykuna'], suffixes, known)).toEqual(['kallpachay', `${PIECE_MARK}kuna`]);
    // a two-character ending of an unknown root, or a short unknown root, stays in the word
    expect(segmentTokens(['kallpachaypi'], suffixes, known)).toEqual(['kallpachaypi']);
    expect(segmentTokens(['wasikuna'], suffixes, known)).toEqual(['wasikuna']);
    // a known word is never split at an unknown stem
    expect(segmentTokens(['llaqtachakuna'], suffixes, known)).toEqual(['llaqtachakuna']);
  });

  it('keeps a name the data does not know whole instead of cutting it at any stem that fits', () => {
    const suffixes = ['kuna', 'na', 'ton'];
    const known = (w: string): boolean => ['india', 'marka', 'markakuna'].includes(w);
    // as words, 'indiana' is the known 'india' + -na and 'washington' an unknown root + -ton
    expect(segmentTokens(['indiana', 'washington'], suffixes, known, ['indiana', 'washington'])).toEqual([
      'india',
      `${PIECE_MARK}na`,
      'washing',
      `${PIECE_MARK}ton`,
    ]);
    // as names (capitalized inside their sentence) they stay whole; a known word is split as in the data all the same
    const asNames = segmentTokens(['indiana', 'washington', 'markakuna'], suffixes, known, ['Indiana', 'Washington', 'Markakuna'], () => true);
    expect(asNames).toEqual(['Indiana', 'Washington', 'Marka', `${PIECE_MARK}kuna`]);
  });

  it('translates an inflected form never seen in the data through its aligned stem and suffixes', () => {
    const r = tr.translateText('markakunapi ikini.', { direction: 'reverse' });
    // the stem gives 'pueblo', the locative piece 'en' (without pieces the unknown word falls back to its nearest
    // known form, 'markakuna' → 'los pueblos', and the locative is lost)
    expect(r.translation).toContain('pueblo');
    expect(r.translation).toMatch(/\ben\b/);
    expect(r.untranslated).toEqual([]);
    // the stem piece aligned with the Spanish word; glossary lines show whole words, never marked pieces
    expect(lookupLexicon(model, 'markapi', 'reverse').map((e) => e.target)).toContain('pueblo');
    expect(lookupLexicon(model, 'markapi', 'reverse').every((e) => !e.source.includes(PIECE_MARK) || e.source.startsWith(PIECE_MARK))).toBe(true);
    // output pieces are joined back into words, and the segmentation travels with the stored agent
    const fwd = new Translator(deserializeModel(serializeModel(model)), index).translateText('veo los pueblos y duermo.');
    expect(fwd.translation).toContain('markakuna');
    expect(fwd.translation).not.toContain(PIECE_MARK);
  });

  it('reads a name inflected by a suffix as the name and the suffix: the name is carried over as written without it', () => {
    // 'Londres' is no word of the data: without the split the whole 'Londrespi' was copied into the Spanish; the
    // suffix's translation may go before the name, where Spanish puts its prepositions
    const inside = tr.translateText('ikini Londrespi.', { direction: 'reverse' }).translation;
    expect(inside).toMatch(/\ben (el )?Londres\b/);
    expect(inside).not.toContain('Londrespi');
    // a suffix is split off only where it leaves a name of at least four letters spelled more like the output language
    expect(tr.unknownWords.nameSplit(['ikini', 'Londrespi'], 1, 1)).toEqual(['Londres', `${PIECE_MARK}pi`]);
    expect(tr.unknownWords.nameSplit(['ikini', 'Tupi'], 1, 1)).toBeNull();
    // a language that writes the suffix of a name after a hyphen ('Londres-pi'): the name is carried without it
    expect(tr.unknownWords.nameSplit(['ikini', 'Londres-pi'], 1, 1)).toEqual(['Londres', `${PIECE_MARK}pi`]);
    const hyphened = tr.translateText('ikini Londres-pi.', { direction: 'reverse' }).translation;
    expect(hyphened).toMatch(/\bLondres\b/);
    expect(hyphened).not.toContain('-');
    // a capitalized sentence opener may be any word, and the agent's source side (Spanish here) is not segmented
    expect(tr.unknownWords.nameSplit(['Londrespi', 'ikini'], 0, 1)).toBeNull();
    expect(tr.unknownWords.nameSplit(['ikini', 'Londrespi'], 1, 0)).toBeNull();
  });

  it("writes the suffix of a preposition before a name the data does not know after the name: 'en Londres' → 'Londrespi'", () => {
    // before, the locative piece joined the word before the name ('ikinikunapi Londres.'), word by word ('en' is -pi
    // or -kunapi here, of 'en el …' and 'en los …' nearly as often)
    const r = tr.translateText('duermo en Londres.');
    expect(r.translation).toMatch(/\bLondres(kuna)?pi\b/);
    expect(r.translation).toMatch(/\bikini\b/);
    expect(r.untranslated).toEqual([]);
    // a known word after the preposition is translated as before, and a name opening the sentence gets no suffix
    expect(tr.translateText('duermo en la casa.').translation).toContain('utapi');
    expect(tr.translateText('Londres duerme.').translation).not.toMatch(/Londres\S/);
  });

  it('never writes a suffix piece where no word precedes it to join: at the start of a sentence or after punctuation', () => {
    const suffixes = new Set(model.segmenters?.[1] ?? []);
    expect(suffixes.has('kuna')).toBe(true);
    // 'en' and 'los' are the locative and plural pieces here: word by word they would come before their noun
    for (const input of ['en Lima duermo.', 'los perros duermen.', 'duermo. en Lima.']) {
      const decoded = tr.candidates(input, {}).candidates.filter((c) => c.strategy === 'phrase-decoder');
      expect(decoded.length).toBeGreaterThan(0);
      for (const c of decoded) {
        const words = c.text.split(/\s+|(?=[.])/).filter(Boolean);
        words.forEach((w, i) => {
          if (i === 0 || !/^\p{L}/u.test(words[i - 1])) expect([input, w, suffixes.has(w.toLowerCase())]).toEqual([input, w, false]);
        });
      }
    }
  });
});

describe('a word translated by a suffix piece where no word precedes it', () => {
  // 'los' is the plural -kuna here, but a word-list entry of the data gives it a word of its own
  const pairs = [...corpus(), { id: 'los', source: 'los.', target: 'runa.' }];
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(trainAgentModel(pairs), index);

  it('is left out at the start of the answer instead of given its rare word of its own', () => {
    // before, 'los perros duermen.' came out 'runa anu ikini.': the piece has no word to join there
    expect(tr.translateText('los perros duermen.').translation).toBe('anu ikini.');
    expect(tr.translateText('los niños cantan.').translation.toLowerCase()).not.toContain('runa');
    // after a word the piece joins it as before
    expect(tr.translateText('veo los pueblos y duermo.').translation).toContain('markakuna');
  });
});

describe('a name inflected by suffixes that fit it in more than one way', () => {
  /** Spanish word-list entries mostly ending in -to (made-up words on the other side), and two ending in -on. */
  const WORD_LIST = ['gato', 'pato', 'alto', 'santo', 'junto', 'cuarto', 'tanto', 'punto', 'manto', 'viento', 'cuento', 'con', 'son'];

  /**
   * The language above with a possessive locative -npi ('utanpi': in his house) beside the commoner -pi, and an
   * assertive -mi ('utami': it is a house) never written after -pi in the data. 'Washingtonpi' is then both
   * 'Washington' + -pi and 'Washingto' + -npi, each name spelled more like Spanish than the inflected word, and the
   * spelling alone prefers 'Washingto' (the data's Spanish words end in -to far more often than in -on).
   */
  function corpusWithSuffixes(): ParallelPair[] {
    const out = corpus();
    for (const [sg, , stem] of NOUNS) {
      out.push({ id: String(out.length), source: `duermo en su ${sg}.`, target: `${stem}npi ikini.` });
      out.push({ id: String(out.length), source: `es ${sg === 'casa' ? 'la' : 'el'} ${sg}.`, target: `${stem}mi.` });
    }
    WORD_LIST.forEach((w, i) => out.push({ id: String(out.length), source: `${w}.`, target: `tuk${i}ay.` }));
    return out;
  }

  const pairs = corpusWithSuffixes();
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(trainAgentModel(pairs), index);

  it('takes the reading with the commoner suffix where the spelling alone would cut the name short', () => {
    // before, the likelier spelling won: 'Washingto' + -npi
    expect(tr.unknownWords.nameSplit(['ikini', 'Washingtonpi'], 1, 1)).toEqual(['Washington', `${PIECE_MARK}pi`]);
    const r = tr.translateText('ikini Washingtonpi.', { direction: 'reverse' });
    expect(r.translation).toMatch(/\ben (el )?Washington\b/);
    expect(tr.unknownWords.nameSplit(['ikini', 'Londrespi'], 1, 1)).toEqual(['Londres', `${PIECE_MARK}pi`]);
  });

  it('splits a name followed by two suffixes the data never writes together into the name and both suffixes', () => {
    // before, only one suffix of the inventory was tried: '-pimi' is none, and the name stayed 'Londrespimi'
    expect(tr.unknownWords.nameSplit(['ikini', 'Londrespimi'], 1, 1)).toEqual(['Londres', `${PIECE_MARK}pi`, `${PIECE_MARK}mi`]);
    expect(tr.translateText('ikini Londrespimi.', { direction: 'reverse' }).translation).toMatch(/\bLondres\b/);
  });
});

describe('a name split from its suffix where the language borrows words', () => {
  // the language keeps rare Spanish nouns as they are, so an unknown word spelled like Spanish is a probable loanword
  const pairs = [...corpus(), ...BORROWED_NOUNS.map((w, i) => ({ id: `borrowed-${i}`, source: `veo el ${w}.`, target: `${w} rikuni.` }))];
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(trainAgentModel(pairs), index);

  it('does not report the name as untranslated: it is carried over and its suffix translated', () => {
    expect(tr.unknownWords.carryKind('Londrespi', false, 1)).toBe('borrowed');
    const r = tr.translateText('ikini Londrespi.', { direction: 'reverse' });
    expect(r.translation).toMatch(/\ben (el )?Londres\b/);
    expect(r.untranslated).toEqual([]);
  });
});
