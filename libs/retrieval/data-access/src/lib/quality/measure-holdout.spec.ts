import { deserializeModel, HybridIndex, Translator } from '@gaia/engine';
import { syntheticCorpus } from '@gaia/testing';
import { encodeAgentArtifacts, pairsTextBytes, STORED_TEXT_RATIO_MAX } from '../agent-artifacts.codec';
import { selectHoldout } from './holdout';
import { measureHoldout } from './measure-holdout';

/** A word-for-word "language": every source word has one target word, so a learned model translates held-out sentences well. */
function cipherPairs(n: number) {
  const words = ['river', 'maize', 'mother', 'child', 'sun', 'rain', 'house', 'road', 'bird', 'stone', 'water', 'fire', 'night', 'field', 'song'];
  const tr = (w: string) => `${w.split('').reverse().join('')}a`;
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, (_, i) => {
    const s = Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * words.length)]);
    return { id: String(i), source: s.join(' '), target: s.map(tr).join(' ') };
  });
}

describe('held-out measurement', () => {
  it('is too small to measure under 200 pairs', () => {
    const m = measureHoldout(cipherPairs(150));
    expect(m.quality).toEqual({ measured: false, heldOut: 0, scores: null, evaluationMs: 0 });
    expect(m.calibration).toBeUndefined();
  });

  it('scores the held-out pairs with a model learned without them and fits the calibration of both directions', () => {
    const m = measureHoldout(cipherPairs(400));
    expect(m.quality.measured).toBe(true);
    expect(m.quality.heldOut).toBe(20);
    expect(m.translations).toHaveLength(20);
    const s = m.quality.scores!;
    expect(s.chrf).toBeGreaterThan(0.5);
    expect(s.chrf).toBeLessThanOrEqual(1);
    expect(s.bleu).toBeGreaterThan(0);
    expect(s.margin).toBeGreaterThan(0.1);
    expect(m.calibration?.forward?.knots.length).toBeGreaterThan(0);
    expect(m.calibration?.reverse?.points).toBe(20);
  });

  it('measures the model as a build stores it: within the storage bound (its character LMs cut to fit)', () => {
    // 240 synthetic pairs (228 learned from): a model and index of 3.5x their text with the character LMs whole
    const pairs = syntheticCorpus(240, 3);
    const m = measureHoldout(pairs);
    const { train } = selectHoldout(pairs);
    expect(encodeAgentArtifacts(m.artifacts!).byteLength).toBeLessThanOrEqual(STORED_TEXT_RATIO_MAX * pairsTextBytes(train));
    const stored = deserializeModel(m.artifacts!.model);
    expect(stored.charLms?.[1].order).toBeLessThan(5);
    // the translations scored are the stored model's
    const translator = new Translator(stored, HybridIndex.deserialize(m.artifacts!.index));
    for (const t of m.translations.slice(0, 5)) expect(translator.translateText(t.source).translation).toBe(t.hypothesis);
  });
});
