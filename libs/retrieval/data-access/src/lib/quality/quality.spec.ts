import { holdoutSize, selectHoldout } from './holdout';
import { scoreTranslations } from './quality-metrics';

const pairs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i), source: `source sentence ${i}`, target: `target ${i}` }));

describe('held-out selection', () => {
  it('holds out 5 %, at least 20 and at most 500 pairs; none under 200 pairs', () => {
    expect(holdoutSize(0)).toBe(0);
    expect(holdoutSize(199)).toBe(0);
    expect(holdoutSize(200)).toBe(20);
    expect(holdoutSize(399)).toBe(20);
    expect(holdoutSize(2_000)).toBe(100);
    expect(holdoutSize(10_000)).toBe(500);
    expect(holdoutSize(5_000_000)).toBe(500);
    expect(selectHoldout(pairs(150)).heldOut).toHaveLength(0);
    expect(selectHoldout(pairs(150)).train).toHaveLength(150);
  });

  it('is deterministic and independent of the order of the pairs', () => {
    const a = selectHoldout(pairs(1_000));
    const b = selectHoldout([...pairs(1_000)].reverse());
    expect(a.heldOut).toHaveLength(50);
    expect(a.heldOut.map((p) => p.id).sort()).toEqual(b.heldOut.map((p) => p.id).sort());
    expect(selectHoldout(pairs(1_000)).heldOut).toEqual(a.heldOut);
    expect(a.train).toHaveLength(950);
  });

  it('never trains on a held-out source (duplicates of a held-out pair are left out of training)', () => {
    const data = [...pairs(400), ...pairs(400).map((p) => ({ ...p, id: `dup-${p.id}` }))];
    const { heldOut, train } = selectHoldout(data);
    expect(heldOut).toHaveLength(40);
    const held = new Set(heldOut.map((p) => p.source));
    expect(train.some((p) => held.has(p.source))).toBe(false);
    expect(train).toHaveLength(800 - 2 * 40);
  });
});

describe('held-out scores', () => {
  it('BLEU of a known case: 1-4-gram precisions 5/6, 4/5, 3/4, 2/3 and no brevity penalty give (1/3)^(1/4)', () => {
    const s = scoreTranslations(['a b c d e f'], ['a b c d e g']);
    expect(s.bleu).toBeCloseTo(Math.pow(1 / 3, 1 / 4), 6);
    expect(scoreTranslations(['same words here'], ['same words here']).chrf).toBeCloseTo(1, 6);
  });

  it('the specificity margin is high for aligned output and about zero for output that ignores its source', () => {
    const refs = ['the river is high', 'my mother cooks maize', 'children play at dawn', 'a red bird sings', 'we walk to the market', 'rain falls on the roof'];
    expect(scoreTranslations(refs, refs).margin).toBeGreaterThan(0.5);
    const generic = scoreTranslations(
      refs.map(() => 'the river is high'),
      refs,
    );
    expect(Math.abs(generic.margin)).toBeLessThan(0.05);
  });
});
