import type { AgentFeedback } from '@gaia/contracts';
import { CachedAgentFeedback, FEEDBACK_EXAMPLES_PER_REQUEST } from './cached-agent-feedback.adapter';

function source(versions: AgentFeedback[]) {
  const calls: string[] = [];
  let i = 0;
  return {
    calls,
    load: async (agentId: string) => {
      calls.push(agentId);
      const v = versions[Math.min(i++, versions.length - 1)];
      if (!v) throw new Error('agents service down');
      return v;
    },
  };
}

const v1: AgentFeedback = {
  version: 1,
  corrections: [{ id: 'c1', source: 'el perro grande', target: 'hatun allqu kachkan' }],
  glossary: [{ term: 'agua', translation: 'unu', case_sensitive: false }],
};
const v2: AgentFeedback = { version: 2, corrections: [], glossary: [{ term: 'agua', translation: 'yaku', case_sensitive: false }] };

describe('CachedAgentFeedback', () => {
  it('asks nothing for an agent without feedback (version 0)', async () => {
    const s = source([v1]);
    expect(await new CachedAgentFeedback(s).forRequest('a1', 0, 'el agua', 'forward')).toEqual({ examples: [], glossary: [] });
    expect(s.calls).toEqual([]);
  });

  it('keeps one copy per version: reused while the version holds, reloaded once when it changes (every replica sees it on its next request)', async () => {
    const s = source([v1, v2]);
    const cache = new CachedAgentFeedback(s);
    const [a, b] = await Promise.all([cache.forRequest('a1', 1, 'agua fría', 'forward'), cache.forRequest('a1', 1, 'el perro grande', 'forward')]);
    expect(s.calls).toEqual(['a1']);
    expect(a).toEqual({ examples: [], glossary: [{ term: 'agua', translation: 'unu', caseSensitive: false }] });
    expect(b.examples).toEqual([{ id: 'c1', source: 'el perro grande', target: 'hatun allqu kachkan' }]);
    expect((await cache.forRequest('a1', 2, 'el agua', 'forward')).glossary).toEqual([{ term: 'agua', translation: 'yaku', caseSensitive: false }]);
    expect(s.calls).toEqual(['a1', 'a1']);
  });

  it('orients corrections and terms for the reverse direction, and hands at most a few nearest corrections', async () => {
    const many: AgentFeedback = {
      version: 3,
      corrections: Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, source: `el perro ${i}`, target: `allqu ${i}` })),
      glossary: v1.glossary,
    };
    const cache = new CachedAgentFeedback(source([many]));
    const rev = await cache.forRequest('a1', 3, 'unu allqu 7', 'reverse');
    expect(rev.glossary).toEqual([{ term: 'unu', translation: 'agua', caseSensitive: false }]);
    expect(rev.examples[0]).toEqual({ id: 'c7', source: 'allqu 7', target: 'el perro 7' });
    expect(rev.examples.length).toBe(FEEDBACK_EXAMPLES_PER_REQUEST);
  });

  it('answers without feedback when the agents service cannot be asked', async () => {
    const cache = new CachedAgentFeedback(source([]));
    expect(await cache.forRequest('a1', 1, 'el agua', 'forward')).toEqual({ examples: [], glossary: [] });
  });
});
