import { loanwordCorpus } from '../testing/loanword-corpus';
import { Cognates } from './cognates';
import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { Translator } from './translator';

describe('near-cognates with learned orthography correspondences', () => {
  // Spanish loanwords written k for c and u for a final o ('kamisa' ↔ 'camisa', 'sapatu' ↔ 'zapato'); 'kuchillu' never seen
  const pairs = loanwordCorpus();
  const model = trainAgentModel(pairs);
  const index = new HybridIndex();
  index.add(pairs);
  const tr = new Translator(model, index);
  const REVERSE = 1;

  it('learns the correspondences from the lexicon: k ↔ c and u ↔ o cost less than an unseen edit', () => {
    const costs = new Cognates(model).costs(REVERSE);
    const id = (c: string): number => costs.ids.get(c.codePointAt(0) as number) as number;
    const sub = (a: string, b: string): number => costs.sub[id(a) * costs.size + id(b)];
    expect(sub('k', 'c')).toBeLessThan(1);
    expect(sub('u', 'o')).toBeLessThan(1);
    expect(sub('k', 'k')).toBe(0);
    expect(sub('t', 'c')).toBe(1);
    expect(costs.cls[id('k')]).toBe(costs.cls[id('c')]);
  });

  it('maps an unknown loanword to the output word it is spelled like, only through learned edits', () => {
    const cognates = new Cognates(model);
    expect(cognates.find('kuchillu', REVERSE)).toBe('cuchillo');
    // two edits as well, but not learned ones
    expect(cognates.find('cuchella', REVERSE)).toBeNull();
    // a word of no likeness, and one too short to tell
    expect(cognates.find('tiyana', REVERSE)).toBeNull();
    expect(cognates.find('kama', REVERSE)).toBeNull();
  });

  it('translates a near-cognate (and carries a number) where the word would otherwise be left out', () => {
    const r = tr.translateText('Mamay huk 3 kuchillu maskan.', { direction: 'reverse' });
    expect(r.translation).toContain('cuchillo');
    expect(r.translation).toContain('3');
    // a guess, still marked for the reader
    expect(r.untranslated.map((s) => s.text)).toEqual(['kuchillu']);
    const none = tr.translateText('Juan huk tiyana qatun.', { direction: 'reverse' });
    expect(none.translation).not.toMatch(/tiyana/);
    expect(none.untranslated.map((s) => s.text)).toEqual(['tiyana']);
  });

  it('keeps a loanword written the same in both languages', () => {
    expect(tr.translateText('Wawa huk televisor qatun.', { direction: 'reverse' }).translation).toContain('televisor');
  });
});
