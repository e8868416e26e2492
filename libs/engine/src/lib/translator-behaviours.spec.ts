import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { Translator } from './translator';
import type { TranslationEvent } from './types';
import { ARTICLE_SUBJECTS, ARTICLE_SYNONYMS, ARTICLE_VERBS, articleCorpus, articleDialogues, articleSynonyms } from '../testing/article-corpus';
import { BORROWED_NOUNS } from '../testing/borrowed-nouns';
import { everydayCorpus } from '../testing/everyday-corpus';
import { toyCorpus } from '../testing/toy-corpus';

/** Below this confidence a translation is uncertain (the translators' badge threshold). */
const LOW = 0.5;
/** A language-model weight 20 times the default's: the toy agent's model then prefers leaving an unseen number out. */
const LM_LED_WEIGHT = 4;

describe('Translator behaviours on a small Spanish → English agent', () => {
  const pairs = everydayCorpus();
  // held out so the agent has to compose them
  const held = new Set(['Mi madre come pan en la mañana.', 'Ana bebe leche en la mañana.', 'Mi hermano usa internet en la escuela.']);
  const train = pairs.filter((p) => !held.has(p.source));
  const model = trainAgentModel(train);
  const index = new HybridIndex();
  index.add(train);
  const tr = new Translator(model, index);

  it('prefers a frequent phrase over word-by-word choices ("en la mañana" → "in the morning")', () => {
    for (const s of ['Mi madre come pan en la mañana.', 'Ana bebe leche en la mañana.']) {
      const r = tr.translateText(s);
      expect(r.translation).toContain('in the morning');
      expect(r.translation).not.toContain('tomorrow');
      expect(r.untranslated).toEqual([]);
    }
    expect(tr.translateText('Ana bebe leche mañana.').translation).toContain('tomorrow');
  });

  it('does not copy an unknown word of the input language: leaves it out and marks its span', () => {
    const src = 'El gato duerme en la casa.';
    const r = tr.translateText(src);
    expect(r.translation).not.toMatch(/gato/i);
    expect(r.translation).toContain('sleeps in the house');
    expect(r.untranslated).toEqual([{ start: 3, end: 7, text: 'gato' }]);
    expect(src.slice(3, 7)).toBe('gato');
  });

  it('keeps a word that belongs in the target language (a loanword the English data uses)', () => {
    const r = tr.translateText('Ana duerme en el hotel.');
    expect(r.translation).toBe('Ana sleeps in the hotel.');
    expect(r.untranslated).toEqual([]);
  });

  it('carries names, numbers, times and URLs over exactly', () => {
    const name = tr.translateText('Mi hermano duerme en la casa de Lucía.');
    expect(name.translation).toContain('Lucía');
    expect(name.untranslated.map((s) => s.text)).toEqual(['de']);
    const time = tr.translateText('Ana compra pan a las 10:30.');
    expect(time.translation).toContain('10:30');
    expect(time.translation).toContain('buys bread');
    const url = tr.translateText('Ana compra pan hoy en www.tienda.example.');
    expect(url.translation).toContain('www.tienda.example');
    expect(url.untranslated).toEqual([]);
    // an abbreviation written with dots is one name, not letters and full stops to drop one by one
    const acronym = tr.translateText('Mi hermano duerme en la casa de la O.N.U.');
    expect(acronym.translation).toContain('O.N.U.');
    expect(acronym.untranslated.map((s) => s.text)).not.toContain('O');
  });

  it('carries a number over where its data saw it only inside another number or saw a longer one, and does not leave a seen one out', () => {
    const withNumbers = [
      ...train,
      // '000' is seen, but with no translation of its own: its one pair writes the number as one token
      { id: 'n1', source: 'Mi madre compra 2 000 panes en la escuela.', target: 'My mother buys 2000 breads at the school.' },
      // the translation leaves the year out: the phrases of this pair that hold it lose it
      { id: 'n2', source: 'Mi hermano come pan desde 1990.', target: 'My brother eats bread.' },
      { id: 'n3', source: 'Ana tiene 2000 libros.', target: 'Ana has 2000 books.' },
    ];
    const index = new HybridIndex();
    index.add(withNumbers);
    const numbersModel = trainAgentModel(withNumbers);
    const numbers = new Translator(numbersModel, index);
    expect(numbers.translateText('Ana compra 20 000 panes.').translation).toContain('20 000');
    expect(numbers.translateText('Mi madre come pan desde 1990.').translation).toContain('1990');
    expect(numbers.translateText('Ana come pan desde 1990.').translation).toContain('1990');
    // an unknown number is not an inflected form of a known one ('20000' of '2000')
    expect(numbers.unknownWords.stemBackoff('20000', 0)).toBeNull();
    expect(numbers.translateText('Mi madre tiene 20000 libros.').translation).toContain('20000');
    // a seen number is not left out, even where the language model would rather not write it
    const lmLed = new Translator(numbersModel, index, { weights: { lm: LM_LED_WEIGHT } });
    expect(lmLed.translateText('Mi madre come pan desde 1990.').translation).toContain('1990');
    expect(lmLed.translateText('Ana come pan en la mañana desde 1990.').translation).toContain('1990');
  });

  it('writes a name the data knows with the capital the input gives it inside the sentence', () => {
    // 'Ana' opens every sentence of the data, so nothing there says how it is written inside one: it came out as 'ana'
    const r = tr.translateText('Mi madre y Ana comen pan.');
    expect(r.translation).toMatch(/\bAna\b/);
    expect(r.translation).not.toMatch(/\bana\b/);
  });

  it('reads an unknown capitalized word inside a sentence as a name, not as a spelling variant of a known word', () => {
    // 'lecha' is within the variant distance of 'leche' (→ 'milk'): as a sentence's word it is read so
    expect(tr.unknownWords.variantBackoff('lecha', 0)).toBe('leche');
    const r = tr.translateText('Mi hermano duerme en la casa de Lecha.');
    expect(r.translation).toContain('Lecha');
    expect(r.translation).not.toContain('milk');
  });

  it('never answers with an unrelated example when it cannot translate: partial output, low confidence, spans marked', () => {
    const src = 'Where is the library?';
    const r = tr.translateText(src);
    expect(train.map((p) => p.target)).not.toContain(r.translation);
    expect(r.provenance.strategy).not.toBe('nearest-example');
    expect(r.confidence).toBeLessThan(LOW);
    const marked = r.untranslated.map((s) => s.text);
    expect(marked).toContain('library');
    for (const s of r.untranslated) expect(src.slice(s.start, s.end)).toBe(s.text);
    expect(r.translation).not.toContain('library');
  });

  it('does not open its answer with the punctuation that followed an input word it left out', () => {
    // 'bueno' is no word of the data: left out, its comma opened the answer (', my mother eats bread today.')
    const r = tr.translateText('bueno, mi madre come pan hoy.');
    expect(r.translation).toBe('my mother eats bread today.');
    expect(r.untranslated.map((u) => u.text)).toEqual(['bueno']);
    // punctuation the input opens with stays
    expect(tr.translateText(', mi madre come pan hoy.').translation).toMatch(/^,/);
  });

  it('is confident on a sentence it can translate', () => {
    expect(tr.translateText('Mi madre come pan en la mañana.').confidence).toBeGreaterThanOrEqual(LOW);
  });

  it('reads a spelling variant (missing accent) as the known word', () => {
    expect(tr.unknownWords.variantBackoff('cafe', 0)).toBe('café');
    expect(tr.translateText('Mi madre bebe cafe hoy.').translation).toContain('coffee');
  });

  it('reads a short word spelled one letter otherwise (another orthography) as the known word', () => {
    // three letters: one edit is a third of the word, above the share longer words may differ by
    expect(tr.unknownWords.variantBackoff('hoi', 0)).toBe('hoy');
    expect(tr.translateText('Mi madre come pan hoi.').translation).toContain('today');
    // a word with no known word one letter away stays unknown
    expect(tr.unknownWords.variantBackoff('gato', 0)).toBeNull();
  });

  it('repairs a near-duplicate example instead of returning it as it is', () => {
    const r = tr.translateText('Mi hermano usa internet en la escuela.');
    expect(r.translation).toBe('My brother uses the internet in the school.');
    // the nearest examples differ in one word; they are evidence, never the answer as they are
    const raw = r.candidates.filter((c) => c.strategy === 'nearest-example').map((c) => c.text);
    expect(raw.length).toBeGreaterThan(0);
    expect(raw).not.toContain(r.translation);
  });

  it('puts the untranslated spans and the confidence on the translation_complete event', async () => {
    const events: TranslationEvent[] = [];
    for await (const e of tr.translate('El gato duerme en la casa.')) events.push(e);
    const done = events[events.length - 1];
    expect(done.type).toBe('translation_complete');
    if (done.type !== 'translation_complete') return;
    expect(done.untranslated).toEqual([{ start: 3, end: 7, text: 'gato' }]);
    expect(done.confidence).toBeGreaterThan(0);
  });

  it('offsets the spans of later lines into the whole input', () => {
    const src = 'Ana duerme en la casa.\nEl gato duerme en la casa.';
    const r = tr.translateText(src);
    expect(r.untranslated).toEqual([{ start: 26, end: 30, text: 'gato' }]);
    expect(src.slice(26, 30)).toBe('gato');
  });
});

describe('Translator loanwords into the agent source language (toy corpus, reverse)', () => {
  const pairs = toyCorpus();
  const model = trainAgentModel(pairs);
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(model, index);

  it('keeps a Spanish word found inside an indigenous-language sentence', () => {
    const r = tr.translateText("warmi casa manq'i.", { direction: 'reverse' });
    expect(r.translation).toContain('casa');
    expect(r.untranslated).toEqual([]);
  });

  it('reduces an inflected loanword to the Spanish word it starts with', () => {
    expect(tr.unknownWords.targetStem('escuelakama', 1)).toBe('escuela');
    const r = tr.translateText('wawa escuelakama irnaqi.', { direction: 'reverse' });
    expect(r.translation).toContain('escuela');
    expect(r.translation).not.toContain('escuelakama');
  });

  it('reads a capitalized sentence opener no data shows as the known word it is a form of, not as a name', () => {
    // 'Ikirinku' opens the sentence, so its capital says nothing; it is 'ikiri' with an ending
    expect(tr.unknownWords.carryKind('Ikirinku', true, 1)).toBe('maybe-name');
    expect(tr.unknownWords.stemBackoff('ikirinku', 1)).toBe('ikiri');
    const r = tr.translateText('Ikirinku utapi.', { direction: 'reverse' });
    expect(r.translation).toMatch(/^Duerme\b/);
    expect(r.translation).not.toContain('Ikirinku');
    // a name opening a sentence, which no known word explains, is still carried over
    expect(tr.translateText('Rosalinda utapi.', { direction: 'reverse' }).translation).toContain('Rosalinda');
  });

  it('tells the spellings of the two languages apart', () => {
    expect(tr.unknownWords.looksLike('escuelita', 1)).toBeGreaterThan(tr.unknownWords.looksLike("jawiraq'a", 1));
  });
});

describe('Translator names opening a sentence (everyday corpus with a name inside sentences)', () => {
  // 'Ramón' is written inside sentences, so the data shows it as a name
  const pairs = everydayCorpus();
  for (const [s, t] of [
    ['Mi madre', 'My mother'],
    ['El niño', 'The boy'],
    ['La niña', 'The girl'],
  ])
    pairs.push({ id: `ramon-${s}`, source: `${s} come pan con Ramón.`, target: `${t} eats bread with Ramón.` });
  const tr = new Translator(trainAgentModel(pairs), new HybridIndex());

  it('carries over an unknown name opening a sentence that is a spelling variant of a name, not that name', () => {
    // 'Ramona' is one letter from 'Ramón': a variant of a name is another name, not a translation of it
    expect(tr.unknownWords.variantBackoff('ramona', 0)).toBe('ramón');
    const r = tr.translateText('Ramona come pan hoy.');
    expect(r.translation).toMatch(/^Ramona eats bread today\.$/);
    // a known word's variant opening a sentence is still read as that word ('Comen' of 'come')
    expect(tr.translateText('Ana comen pan hoy.').translation).toContain('eats');
  });

  it('reads a line written in title case as words, not names: every word is capitalized there, as a heading writes it', () => {
    // before, 'Comen' (capitalized inside its line) was a name and carried over: 'My Mother Comen Bread Today'
    const r = tr.translateText('Mi Madre Comen Pan Hoy');
    expect(r.translation.toLowerCase()).toContain('eats bread');
    expect(r.translation).not.toContain('Comen');
    // a name inside a sentence written as a sentence is still carried over, and so is a name in a title
    expect(tr.translateText('Mi madre come pan con Ramona.').translation).toContain('Ramona');
    expect(tr.translateText('Mi Madre Come Pan Con Ramona').translation).toContain('Ramona');
  });
});

describe('Translator names that start with a word of the output language (toy corpus, reverse)', () => {
  // the Spanish side writes 'india' (a woman of India), so 'Indiana' starts with a Spanish word and -na could be an ending
  const pairs = [...toyCorpus(), { id: 'india', source: 'la india come en la casa.', target: "warmi utapi manq'i." }];
  const tr = new Translator(trainAgentModel(pairs), new HybridIndex());

  it('carries a name over whole instead of reducing it to the output word it starts with', () => {
    // a word is still read as an inflected loanword; a name only when the word left is spelled far more like Spanish
    expect(tr.unknownWords.targetStem('indiana', 1)).toBe('india');
    expect(tr.unknownWords.targetStem('Indiana', 1, true)).toBeNull();
    const r = tr.translateText('wawa Indiana utapi ikiri.', { direction: 'reverse' });
    expect(r.translation).toContain('Indiana');
    expect(r.translation).not.toMatch(/\bIndia\b/);
  });
});

describe('Translator borrowing learned from the data', () => {
  // an invented language that keeps rare Spanish nouns unchanged (as many indigenous-language corpora do)
  // (with 'kiwi' and 'queso' the Spanish side writes 'k', 'w' and 'q' too: a word of the invented language may be a loanword of it)
  const pairs = [
    ...toyCorpus(),
    ...[...BORROWED_NOUNS, 'kiwi', 'queso'].map((w, i) => ({ id: `b-${i}`, source: `el perro come ${w}.`, target: `anu ${w} manq'i.` })),
  ];
  const tr = new Translator(trainAgentModel(pairs), new HybridIndex());

  it('treats a long unknown word as a probable loanword only where the data shows borrowing', () => {
    expect(tr.unknownWords.borrowingRate(0)).toBeGreaterThan(0.03);
    expect(tr.unknownWords.carryKind('manzanas', false, 0)).toBe('borrowed');
    const everyday = new Translator(trainAgentModel(everydayCorpus()), new HybridIndex());
    expect(everyday.unknownWords.borrowingRate(0)).toBe(0);
    expect(everyday.unknownWords.carryKind('manzanas', false, 0)).toBeNull();
  });

  it('reads an inflected form of a known word as that word into the source language, not as a loanword', () => {
    // the data borrows rare words both ways, and 'irnaqirinaka' is unknown: long enough to be a loanword, but 'irnaqi' + suffix
    expect(tr.unknownWords.carryKind('irnaqirinaka', false, 1)).toBe('borrowed');
    expect(tr.unknownWords.stemBackoff('irnaqirinaka', 1)).toBe('irnaqi');
    const r = tr.translateText('wawa irnaqirinaka.', { direction: 'reverse' });
    expect(r.translation).toContain('trabaja');
    expect(r.translation).not.toContain('irnaqirinaka');
  });

  it('still reports a kept probable loanword as untranslated', () => {
    expect(tr.unknownWords.untranslatedSpans('el perro come manzanas.', 0).spans).toEqual([{ start: 14, end: 22, text: 'manzanas' }]);
  });
});

describe('Translator sentence endings (an article only the Spanish side writes, reverse)', () => {
  const pairs = articleCorpus();
  const model = trainAgentModel(pairs);
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(model, index);

  it('does not end an answer on a word its output language never ends a sentence with', () => {
    // 'la niña' and 'el hombre' are seen only with an object: 'sipas rikun.' is composed, and the phrases of 'rikun'
    // bring the article that opened the object ('ve el'), which the Spanish data never ends a sentence with
    const endings: string[] = [];
    for (const subject of [ARTICLE_SUBJECTS['el hombre'], ARTICLE_SUBJECTS['la niña']])
      for (const verb of Object.values(ARTICLE_VERBS)) endings.push(tr.translateText(`${subject} ${verb}.`, { direction: 'reverse' }).translation);
    expect(endings.filter((t) => /\b(el|la)\W*$/.test(t))).toEqual([]);
  });

  it('closes an answer with a mark where the input closes with one and its data always does', () => {
    // every Spanish sentence of the data ends with a full stop: 'qari mikun.' came out 'el hombre come'
    const open: string[] = [];
    for (const subject of Object.values(ARTICLE_SUBJECTS))
      for (const verb of Object.values(ARTICLE_VERBS)) {
        const answer = tr.translateText(`${subject} ${verb}.`, { direction: 'reverse' }).translation;
        if (!answer.endsWith('.')) open.push(answer);
      }
    expect(open).toEqual([]);
    // an input left open gets no mark added
    expect(tr.translateText(`${ARTICLE_SUBJECTS['mi madre']} ${ARTICLE_VERBS.come}`, { direction: 'reverse' }).translation).toBe('mi madre come');
  });

  it('opens a question with the mark its output language opens questions with', () => {
    // the Spanish side opens its questions with '¿', the other language does not: a question composed from pieces of
    // statements ('qari mikun?') came out 'el hombre come?'
    const questions = Object.entries(ARTICLE_SUBJECTS)
      .slice(0, 2)
      .flatMap(([s, ts]) => Object.entries(ARTICLE_VERBS).map(([v, tv]) => ({ id: `question-${s}-${v}`, source: `¿${s} ${v}?`, target: `${ts} ${tv}?` })));
    const withQuestions = [...pairs, ...questions];
    const questionIndex = new HybridIndex();
    questionIndex.add(withQuestions);
    const asking = new Translator(trainAgentModel(withQuestions), questionIndex);
    const answers = [ARTICLE_SUBJECTS['el hombre'], ARTICLE_SUBJECTS['la niña']].map(
      (s) => asking.translateText(`${s} ${ARTICLE_VERBS.come}?`, { direction: 'reverse' }).translation,
    );
    expect(answers.filter((a) => !/^¿.*\?$/.test(a))).toEqual([]);
    // the other language does not open its questions so: nothing is added that way
    expect(asking.translateText('¿el hombre come?').translation).not.toContain('¿');
  });

  it('does not end an answer on a punctuation mark its output language never ends a sentence with', () => {
    // the Spanish side of the dialogues opens a second turn with a dash after the full stop ('… ve. - …'): the full stop
    // of the other language is also learned as '. -', and the language model expects the dash there
    const withDialogues = [...pairs, ...articleDialogues()];
    const dialogueIndex = new HybridIndex();
    dialogueIndex.add(withDialogues);
    const talk = new Translator(trainAgentModel(withDialogues), dialogueIndex);
    const answers: string[] = [];
    for (const subject of Object.values(ARTICLE_SUBJECTS))
      for (const verb of Object.values(ARTICLE_VERBS)) answers.push(talk.translateText(`${subject} ${verb}.`, { direction: 'reverse' }).translation);
    expect(answers.filter((t) => /-\s*$/.test(t))).toEqual([]);
  });

  it('does not write a word twice in a row where neither its data nor the input does', () => {
    // two adverbs of one translation side by side: each came out as 'mucho' ('… come mucho mucho.')
    const withSynonyms = [...pairs, ...articleSynonyms()];
    const synonymIndex = new HybridIndex();
    synonymIndex.add(withSynonyms);
    const t = new Translator(trainAgentModel(withSynonyms), synonymIndex);
    const [a, b] = ARTICLE_SYNONYMS;
    const answers = Object.values(ARTICLE_SUBJECTS).map((s) => t.translateText(`${s} ${ARTICLE_VERBS.come} ${a} ${b}.`, { direction: 'reverse' }).translation);
    expect(answers.filter((x) => !/\bmucho\b/.test(x))).toEqual([]);
    expect(answers.filter((x) => /\b(\p{L}+) \1\b/u.test(x))).toEqual([]);
    // where the input says it twice, so may the answer
    expect(t.translateText(`${ARTICLE_SUBJECTS['mi madre']} ${ARTICLE_VERBS.come} ${a} ${a}.`, { direction: 'reverse' }).translation).toBe(
      'mi madre come mucho mucho.',
    );
  });

  it('answers a sentence of its data, word for word, with the translation the data gives it', () => {
    const wrong = pairs.filter((p) => tr.translateText(p.target, { direction: 'reverse' }).translation !== p.source);
    expect(wrong.map((p) => p.target)).toEqual([]);
  });
});
