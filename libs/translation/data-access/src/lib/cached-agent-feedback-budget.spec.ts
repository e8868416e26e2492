import type { AgentFeedback } from '@gaia/contracts';
import { ManualClock } from '@gaia/shared/kernel';
import { CachedAgentFeedback, FEEDBACK_RETRY_FIRST_MS, FEEDBACK_RETRY_MAX_MS, feedbackEntryBytes } from './cached-agent-feedback.adapter';

/** An agent's feedback of `corrections` corrections of about `chars` characters each. */
function feedbackOf(corrections: number, chars: number, version = 1): AgentFeedback {
  return {
    version,
    corrections: Array.from({ length: corrections }, (_, i) => ({ id: `c${i}`, source: `${i} ${'s'.repeat(chars)}`, target: `${i} ${'t'.repeat(chars)}` })),
    glossary: [{ term: 'agua', translation: 'unu', case_sensitive: false }],
  };
}

function countingSource(answer: (agentId: string) => AgentFeedback | Error) {
  const calls: string[] = [];
  return {
    calls,
    load: async (agentId: string) => {
      calls.push(agentId);
      const a = answer(agentId);
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

describe('CachedAgentFeedback: byte budget and failed loads', () => {
  it('keeps agents within a byte budget: the least recently used are dropped once their bytes exceed it', async () => {
    const one = feedbackOf(20, 500);
    const bytes = feedbackEntryBytes(one);
    expect(bytes).toBeGreaterThan(20 * 2 * 500 * 2); // both texts of every correction, two bytes a character at least
    const s = countingSource(() => one);
    const cache = new CachedAgentFeedback(s, { maxAgents: 512, maxBytes: Math.floor(bytes * 2.5) });
    for (const id of ['a1', 'a2', 'a3']) await cache.forRequest(id, 1, 'agua', 'forward');
    expect(cache.stats()).toEqual({ agents: 2, bytes: 2 * bytes, maxBytes: Math.floor(bytes * 2.5) });
    await cache.forRequest('a2', 1, 'agua', 'forward');
    await cache.forRequest('a3', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['a1', 'a2', 'a3']); // a2 and a3 kept
    await cache.forRequest('a1', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['a1', 'a2', 'a3', 'a1']); // a1 had been dropped
  });

  it('serves an agent whose feedback alone exceeds the budget without keeping it (nothing else is evicted for it)', async () => {
    const small = feedbackOf(1, 10);
    const huge = feedbackOf(200, 1000);
    const s = countingSource((id) => (id === 'huge' ? huge : small));
    const cache = new CachedAgentFeedback(s, { maxBytes: feedbackEntryBytes(huge) - 1 });
    await cache.forRequest('small', 1, 'agua', 'forward');
    const served = await cache.forRequest('huge', 1, 'agua 7 sss', 'forward');
    expect(served.examples.length).toBeGreaterThan(0);
    expect(served.glossary).toEqual([{ term: 'agua', translation: 'unu', caseSensitive: false }]);
    expect(cache.stats().agents).toBe(1);
    await cache.forRequest('small', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['small', 'huge']);
  });

  it('remembers a failed load for a short, growing while: translations meanwhile answer without feedback and ask nothing', async () => {
    const clock = new ManualClock();
    let down = true;
    const s = countingSource(() => (down ? new Error('agents service down') : feedbackOf(1, 10)));
    const cache = new CachedAgentFeedback(s, { clock });
    expect(await cache.forRequest('a1', 1, 'agua', 'forward')).toEqual({ examples: [], glossary: [] });
    expect(await cache.forRequest('a1', 1, 'agua', 'forward')).toEqual({ examples: [], glossary: [] });
    expect(s.calls).toEqual(['a1']);

    clock.advance(FEEDBACK_RETRY_FIRST_MS);
    await cache.forRequest('a1', 1, 'agua', 'forward'); // retried once, fails again: the wait doubles
    clock.advance(FEEDBACK_RETRY_FIRST_MS);
    await cache.forRequest('a1', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['a1', 'a1']);

    down = false;
    clock.advance(FEEDBACK_RETRY_FIRST_MS);
    expect((await cache.forRequest('a1', 1, 'agua', 'forward')).glossary).toHaveLength(1);
    await cache.forRequest('a1', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['a1', 'a1', 'a1']);
  });

  it('never waits longer than the maximum between two attempts', async () => {
    const clock = new ManualClock();
    const s = countingSource(() => new Error('down'));
    const cache = new CachedAgentFeedback(s, { clock });
    for (let i = 0; i < 20; i++) {
      await cache.forRequest('a1', 1, 'agua', 'forward');
      clock.advance(FEEDBACK_RETRY_MAX_MS);
    }
    expect(s.calls).toHaveLength(20);
  });
});
