import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { Translator } from './translator';
import type { TranslationEvent } from './types';
import { toyCorpus } from '../testing/toy-corpus';

describe('Translator', () => {
  const pairs = toyCorpus();
  // hold out one sentence so the engine has to compose, not copy
  const held = pairs.find((p) => p.source === 'la mujer canta en el río.')!;
  const train = pairs.filter((p) => p !== held);
  const model = trainAgentModel(train);
  const index = new HybridIndex();
  index.add(train);
  const tr = new Translator(model, index);
  // without the chrF-oriented length push the toy output is exact
  const plain = new Translator(model, index, { weights: { word: 0, len: 0 }, lengthTarget: 1 });

  it('composes an unseen sentence from learned phrases (forward)', () => {
    const r = plain.translateText('La mujer canta en el río.');
    // reference: "Warmi jawirapi q'uchu."
    expect(r.translation).toMatch(/^Warmi /);
    expect(r.translation).toContain('jawirapi');
    expect(r.translation).toContain("q'uchu");
    expect(r.confidence).toBeGreaterThan(0);
    expect(r.confidence).toBeLessThanOrEqual(1);
    expect(r.candidates.length).toBeGreaterThan(1);
    expect(r.candidates.length).toBeLessThanOrEqual(8);
    expect(new Set(r.candidates.map((c) => c.strategy)).size).toBeGreaterThan(1);
    expect(r.provenance.examples.length).toBeGreaterThan(0);
  });

  it('translates in the reverse direction with the same agent', () => {
    const r = plain.translateText("warmi jawirapi q'uchu.", { direction: 'reverse' });
    expect(r.translation.toLowerCase()).toContain('mujer');
    expect(r.translation.toLowerCase()).toContain('canta');
  });

  it('returns one line out per line in', () => {
    const r = tr.translateText('el perro duerme.\nel gato come.');
    expect(r.translation.split('\n')).toHaveLength(2);
  });

  it('copies unknown names through', () => {
    expect(tr.translateText('Pedro duerme.').translation).toContain('Pedro');
  });

  it('keeps the content words with the default (length-calibrated) settings', () => {
    const out = tr.translateText('El gato duerme en la casa.').translation.toLowerCase();
    expect(out).toContain('misi');
    expect(out).toContain('ikiri');
  });

  it('streams status events, then chunks, then one completion carrying the final translation', async () => {
    const events: TranslationEvent[] = [];
    for await (const e of plain.translate('El gato duerme en la casa.')) events.push(e);
    const types = events.map((e) => e.type);
    const firstChunk = types.indexOf('translation_chunk');
    expect(types[0]).toBe('status');
    expect(firstChunk).toBeGreaterThan(0);
    expect(types.slice(firstChunk, -1).every((t) => t === 'translation_chunk')).toBe(true);
    expect(types[types.length - 1]).toBe('translation_complete');
    const done = events[events.length - 1] as Extract<TranslationEvent, { type: 'translation_complete' }>;
    const chunks = events.filter((e): e is Extract<TranslationEvent, { type: 'translation_chunk' }> => e.type === 'translation_chunk');
    expect(chunks.map((c) => c.content).join('')).toBe(done.final_translation);
    expect(done.final_translation).toMatch(/^Misi .*ikiri/);
    expect(done.source_text).toBe('El gato duerme en la casa.');
    expect(done.response_time).toBeGreaterThanOrEqual(0);
  });

  it('ends with an error event when aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const events: TranslationEvent[] = [];
    for await (const e of tr.translate('el perro come.', { signal: ac.signal })) events.push(e);
    expect(events).toEqual([{ type: 'error', message: 'Translation aborted' }]);
  });

  it('works with an agent that has learned nothing yet (copies, finite confidence)', () => {
    const empty = new Translator(trainAgentModel([]), new HybridIndex());
    const r = empty.translateText('Hola Pedro.');
    expect(r.translation).toBe('Hola Pedro.');
    expect(Number.isFinite(r.confidence)).toBe(true);
  });
});
