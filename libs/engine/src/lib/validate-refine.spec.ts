import { withClosingOfInput, withOpeningMarks, withoutDoubledEnding } from './validate-refine';

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

describe('withOpeningMarks', () => {
  const tokens = (s: string): string[] => s.split(' ');
  const spanish = new Set(['?', '!']);

  it('opens each sentence closed by a question or exclamation mark that has no opening mark', () => {
    expect(withOpeningMarks(tokens('quedó en Augusta ?'), spanish)).toEqual(tokens('¿ quedó en Augusta ?'));
    expect(withOpeningMarks(tokens('sí . quedó ? ¡ qué frío !'), spanish)).toEqual(tokens('sí . ¿ quedó ? ¡ qué frío !'));
    // a run of closing marks closes one sentence
    expect(withOpeningMarks(tokens('quedó ? ! bien'), spanish)).toEqual(tokens('¿ quedó ? ! bien'));
  });

  it('leaves sentences already opened, other endings, and languages that do not open them as they are', () => {
    const opened = tokens('¿ quedó en Augusta ? bien .');
    expect(withOpeningMarks(opened, spanish)).toBe(opened);
    expect(withOpeningMarks(tokens('y entonces , ¿ quedó ?'), spanish)).toEqual(tokens('y entonces , ¿ quedó ?'));
    expect(withOpeningMarks(tokens('?'), spanish)).toEqual(tokens('?'));
    expect(withOpeningMarks(tokens('quedó ?'), new Set(['!']))).toEqual(tokens('quedó ?'));
    expect(withOpeningMarks(tokens('quedó ?'), new Set())).toEqual(tokens('quedó ?'));
  });
});

describe('withClosingOfInput', () => {
  const tokens = (s: string): string[] => s.split(' ');
  const written = new Set(['?', '!']);

  it('closes with the input’s question or exclamation mark an answer that closes with a full stop', () => {
    // a phrase of the last words brought the full stop of a statement: '… la causa .' for a question
    expect(withClosingOfInput(tokens('¿ dices la causa .'), tokens('¿ tiquihtoa ?'), written)).toEqual(tokens('¿ dices la causa ?'));
    expect(withClosingOfInput(tokens('qué frío .'), tokens("manq'i !"), written)).toEqual(tokens('qué frío !'));
  });

  it('leaves other endings, inputs closed otherwise, and marks the output language does not write as they are', () => {
    expect(withClosingOfInput(tokens('dices la causa'), tokens('tiquihtoa ?'), written)).toEqual(tokens('dices la causa'));
    expect(withClosingOfInput(tokens('dices la causa .'), tokens('tiquihtoa .'), written)).toEqual(tokens('dices la causa .'));
    expect(withClosingOfInput(tokens('dices la causa .'), tokens('tiquihtoa'), written)).toEqual(tokens('dices la causa .'));
    expect(withClosingOfInput(tokens('dices la causa .'), tokens('tiquihtoa ?'), new Set(['!']))).toEqual(tokens('dices la causa .'));
    expect(withClosingOfInput(tokens('.'), tokens('?'), written)).toEqual(tokens('.'));
  });
});
