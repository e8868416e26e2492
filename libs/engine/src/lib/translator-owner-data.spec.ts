import { calibrateConfidence, fitConfidenceCalibration } from './confidence-calibration';
import { HybridIndex } from './hybrid-index';
import { trainAgentModel } from './model';
import { deserializeModel, serializeModel } from './model-codec';
import { EngineTranslationEvent, Translator } from './translator';
import { everydayCorpus } from '../testing/everyday-corpus';

describe('Translator with the owner’s data: glossary, extra examples, provenance, calibrated confidence', () => {
  const pairs = everydayCorpus();
  const held = new Set(['Mi madre come pan en la mañana.']);
  const train = pairs.filter((p) => !held.has(p.source));
  const model = trainAgentModel(train);
  const index = new HybridIndex();
  index.add(train);
  const tr = new Translator(model, index);

  it('forces a glossary term over a frequent phrase and over an example with the same sentence', () => {
    const glossary = [{ source: 'en la mañana', target: 'at dawn' }];
    expect(tr.translateText('Mi madre come pan en la mañana.').translation).toContain('in the morning');
    const src = 'Mi madre come pan En La Mañana.';
    const r = tr.translateText(src, { glossary });
    expect(r.translation).toContain('at dawn');
    expect(r.translation).not.toContain('morning');
    expect(r.appliedTerms).toEqual([{ source: 'en la mañana', target: 'at dawn', start: 18, end: 30 }]);
    expect(src.slice(18, 30)).toBe('En La Mañana');
    // "Mi padre come pan en la mañana." is a pair of the agent's memory: the term still wins
    const seen = tr.translateText('Mi padre come pan en la mañana.', { glossary });
    expect(seen.translation).toBe('My father eats bread at dawn.');
  });

  it('writes the term as the glossary does, prefers the longest term, matches case only when asked', () => {
    const r = tr.translateText('Mi padre come pan en la mañana.', {
      glossary: [
        { source: 'mañana', target: 'tomorrow-ish' },
        { source: 'la mañana', target: 'the Dawn' },
        { source: 'PAN', target: 'loaf', caseSensitive: true },
      ],
    });
    expect(r.translation).toContain('the Dawn');
    expect(r.translation).not.toContain('tomorrow-ish');
    expect(r.translation).toContain('bread');
    expect(r.appliedTerms.map((t) => t.target)).toEqual(['the Dawn']);
  });

  it('forces the term in the reverse direction (target side → source side)', () => {
    const r = tr.translateText('My father eats bread in the morning.', {
      direction: 'reverse',
      glossary: [{ source: 'por la mañana', target: 'in the morning' }],
    });
    expect(r.translation).toContain('por la mañana');
    expect(r.appliedTerms).toEqual([{ source: 'por la mañana', target: 'in the morning', start: 21, end: 35 }]);
  });

  it('answers an input identical (normalized) to an extra example with its translation exactly', () => {
    const extraExamples = [{ source: 'Mi madre come pan en la mañana.', target: 'Mom has her bread at breakfast.', id: 'correction-7' }];
    const r = tr.translateText('mi madre  come pan en la mañana .', { extraExamples });
    expect(r.translation).toBe('Mom has her bread at breakfast.');
    expect(r.confidence).toBe(1);
    expect(r.provenance.examples.map((e) => e.id)).toEqual(['correction-7']);
    expect(tr.translateText('Mom has her bread at breakfast.', { direction: 'reverse', extraExamples }).translation).toBe('Mi madre come pan en la mañana.');
    // one line of a longer text
    expect(tr.translateText('Ana come sopa hoy.\nMi madre come pan en la mañana.', { extraExamples }).translation.split('\n')[1]).toBe(
      'Mom has her bread at breakfast.',
    );
  });

  it('searches extra examples with the retrieved ones and lists the example that shaped the answer', () => {
    const extraExamples = [{ source: 'Mi madre come pan en la mañana.', target: 'My mother eats bread at breakfast.', id: 'correction-1' }];
    const r = tr.translateText('Mi madre come sopa en la mañana.', { extraExamples, explain: true });
    expect(r.provenance.examples.find((e) => e.id === 'correction-1')).toMatchObject({ origin: 'extra', source: extraExamples[0].source });
    // a near duplicate of the input: repaired in place (only 'pan' → 'soup' changes)
    expect(r.candidates.some((c) => c.strategy === 'fuzzy-match-repair' && c.text === 'My mother eats soup at breakfast.')).toBe(true);
  });

  it('explain lists the real memory example used, the entries with their probabilities and the glossary', () => {
    // a pair of the memory: the example that reads like the answer is listed first
    const r = tr.translateText('Ana duerme en la posada.', { explain: true, glossary: [{ source: 'Ana', target: 'Anna' }] });
    const pair = train.find((p) => p.source === 'Ana duerme en la posada.')!;
    expect(r.provenance.examples[0].id).toBe(pair.id);
    expect(r.provenance.examples.every((e) => e.origin === 'memory')).toBe(true);
    const ex = r.provenance.examples.find((e) => e.id === pair.id)!;
    expect(ex).toMatchObject({ source: pair.source, target: pair.target });
    expect(r.provenance.glossary).toEqual([{ source: 'Ana', target: 'Anna', start: 0, end: 3 }]);
    expect(r.translation).toContain('Anna');
    expect(r.provenance.lexicon.length).toBeGreaterThan(0);
    for (const e of r.provenance.lexicon) {
      expect(e.prob).toBeGreaterThan(0);
      expect(e.prob).toBeLessThanOrEqual(1);
    }
    expect(r.provenance.lexicon.map((e) => e.source)).not.toContain('ana');
  });

  it('fits a monotone calibration and applies it (per call, per translator, or stored with the model)', () => {
    // quality rises with raw confidence, with noise and violations
    let seed = 7;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const points = Array.from({ length: 400 }, () => {
      const raw = rnd();
      return { raw, chrf: Math.max(0, Math.min(1, 0.1 + 0.5 * raw + 0.2 * (rnd() - 0.5))) };
    });
    const cal = fitConfidenceCalibration(points, { maxKnots: 12 });
    expect(cal.points).toBe(400);
    expect(cal.knots.length).toBeLessThanOrEqual(12);
    for (let i = 1; i < cal.knots.length; i++) {
      expect(cal.knots[i][0]).toBeGreaterThan(cal.knots[i - 1][0]);
      expect(cal.knots[i][1]).toBeGreaterThan(cal.knots[i - 1][1]);
    }
    let prev = -1;
    for (let x = 0; x <= 1.0001; x += 0.01) {
      const y = calibrateConfidence(x, cal);
      expect(y).toBeGreaterThanOrEqual(prev);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(1);
      prev = y;
    }
    expect(calibrateConfidence(0.9, cal)).toBeGreaterThan(calibrateConfidence(0.2, cal));
    // a decreasing pair of points pools into one level
    expect(
      fitConfidenceCalibration([
        { raw: 0.2, chrf: 0.5 },
        { raw: 0.8, chrf: 0.3 },
      ]).knots,
    ).toEqual([[0.5, 0.4]]);

    const src = 'Ana bebe leche mañana.';
    const raw = tr.translateText(src);
    expect(raw.confidence).toBe(raw.rawConfidence);
    const perCall = tr.translateText(src, { calibration: cal });
    expect(perCall.rawConfidence).toBe(raw.rawConfidence);
    expect(perCall.confidence).toBeCloseTo(calibrateConfidence(raw.rawConfidence, cal), 12);
    const stored = deserializeModel(serializeModel({ ...model, calibration: { forward: cal } }));
    expect(stored.calibration?.forward).toEqual(cal);
    expect(new Translator(stored, index).translateText(src).confidence).toBeCloseTo(perCall.confidence, 2);
    expect(new Translator(model, index, { calibration: cal }).translateText(src).confidence).toBeCloseTo(perCall.confidence, 12);
  });

  it('streams one status per phase as it starts, then the completion with the applied terms', async () => {
    const events: EngineTranslationEvent[] = [];
    for await (const e of tr.translate('Mi madre come pan en la mañana.', { glossary: [{ source: 'pan', target: 'toast' }] })) events.push(e);
    expect(events.flatMap((e) => (e.type === 'status' ? [e.phase] : []))).toEqual(['retrieve', 'candidates', 'refine']);
    const done = events[events.length - 1];
    if (done.type !== 'translation_complete') throw new Error(`ended with ${done.type}`);
    expect(done.final_translation).toContain('toast');
    expect(done.applied_terms).toEqual([{ source: 'pan', target: 'toast', start: 14, end: 17 }]);
    expect(done.raw_confidence).toBe(done.confidence);
  });
});
