import { HybridIndex, serializeModel, trainAgentModel } from '@gaia/engine';
import { buildAgentBrain } from './engine-knowledge';

const PAIRS = [
  ['la casa grande', 'hatun wasi'],
  ['la casa', 'wasi'],
  ['el perro grande', 'hatun allqu'],
  ['el perro', 'allqu'],
  ['el agua fría', 'chiri yaku'],
  ['el agua', 'yaku'],
].map(([source, target], i) => ({ id: String(i), source, target }));

async function provenanceOf(text: string, direction: 'forward' | 'reverse') {
  const index = new HybridIndex();
  index.add(PAIRS);
  const brain = buildAgentBrain({ model: serializeModel(trainAgentModel(PAIRS)), index: index.serialize() }, { srcLang: 'es', tgtLang: 'qu' });
  for await (const e of brain.knowledge.translate(text, direction, 4, undefined, { explain: true }))
    if (e.type === 'translation_complete') return e.provenance as { examples: { source: string; target: string }[] };
  throw new Error('no translation_complete');
}

describe('built-in engine provenance as the answer explains it', () => {
  it('lists the examples in the direction of the request (reverse: the input language first)', async () => {
    const forward = await provenanceOf('la casa grande', 'forward');
    expect(forward.examples.length).toBeGreaterThan(0);
    for (const e of forward.examples) expect(PAIRS.some((p) => p.source === e.source && p.target === e.target)).toBe(true);
    const reverse = await provenanceOf('hatun wasi', 'reverse');
    expect(reverse.examples.length).toBeGreaterThan(0);
    for (const e of reverse.examples) expect(PAIRS.some((p) => p.target === e.source && p.source === e.target)).toBe(true);
  });
});
