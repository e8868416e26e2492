import { deserializeModel } from '@gaia/engine';
import { syntheticCorpus } from '@gaia/testing';
import { encodeAgentArtifacts, pairsTextBytes, STORED_TEXT_RATIO_MAX } from './agent-artifacts.codec';
import { learnAgent } from './learn-agent';

/** An agent learned from `n` synthetic pairs: what is stored for it, per byte of its pairs' text, and its models' order. */
async function learned(n: number): Promise<{ ratio: number; calibratedRatio: number | null; order: number | undefined }> {
  const pairs = syntheticCorpus(n, 3);
  const agent = learnAgent({ pairs, srcLang: 'es', tgtLang: 'qu' });
  const text = pairsTextBytes(pairs);
  const { model, index } = agent.learned;
  const calibrated = (await agent.measureQuality()).calibratedModel;
  return {
    ratio: encodeAgentArtifacts({ model, index }).byteLength / text,
    calibratedRatio: calibrated ? encodeAgentArtifacts({ model: calibrated, index }).byteLength / text : null,
    order: deserializeModel(model).charLms?.[1].order,
  };
}

describe('what is stored for a learned agent (issue #13: at most 3x its pairs’ text)', () => {
  it('cuts the character LMs to the highest order within the bound (the calibrated model stored later too)', async () => {
    // 200 pairs: 3.6x with the character LMs whole, 2.9x without them
    const a = await learned(200);
    expect(a.ratio).toBeLessThanOrEqual(STORED_TEXT_RATIO_MAX);
    expect(a.order).toBeGreaterThanOrEqual(1);
    expect(a.order).toBeLessThan(5);
    // (200 pairs are enough to measure: the calibrated model exists)
    expect(a.calibratedRatio).not.toBeNull();
    expect(a.calibratedRatio).toBeLessThanOrEqual(STORED_TEXT_RATIO_MAX);
  });

  it('keeps them whole when everything fits', async () => {
    const a = await learned(1000);
    expect(a.ratio).toBeLessThanOrEqual(STORED_TEXT_RATIO_MAX);
    expect(a.order).toBe(5);
  });

  it('goes without them when even the rest is over the bound (a few dozen pairs)', async () => {
    expect((await learned(40)).order).toBeUndefined();
  });
});
