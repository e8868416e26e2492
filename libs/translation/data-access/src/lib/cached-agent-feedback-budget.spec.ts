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
    expect(cache.stats()).toMatchObject({ agents: 2, bytes: 2 * bytes, maxBytes: Math.floor(bytes * 2.5) });
    await cache.forRequest('a2', 1, 'agua', 'forward');
    await cache.forRequest('a3', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['a1', 'a2', 'a3']); // a2 and a3 kept
    await cache.forRequest('a1', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['a1', 'a2', 'a3', 'a1']); // a1 had been dropped
  });

  it('answers an agent whose feedback alone exceeds the budget without it, loading it once per feedback version (nothing else is evicted for it)', async () => {
    const small = feedbackOf(1, 10);
    const huge = feedbackOf(200, 1000);
    const s = countingSource((id) => (id === 'huge' ? huge : small));
    const cache = new CachedAgentFeedback(s, { maxBytes: feedbackEntryBytes(huge) - 1 });
    await cache.forRequest('small', 1, 'agua', 'forward');
    for (let i = 0; i < 3; i++) expect(await cache.forRequest('huge', 1, 'agua 7 sss', 'forward')).toEqual({ examples: [], glossary: [] });
    expect(cache.stats()).toMatchObject({ agents: 1, oversized: 1 });
    await cache.forRequest('small', 1, 'agua', 'forward');
    expect(s.calls).toEqual(['small', 'huge']); // not reloaded by every translation

    // a new version (the owner deleted corrections) is loaded again, once, and kept when it fits
    huge.corrections.splice(1);
    await cache.forRequest('huge', 2, 'agua', 'forward');
    expect((await cache.forRequest('huge', 2, 'agua', 'forward')).glossary).toHaveLength(1);
    expect(s.calls).toEqual(['small', 'huge', 'huge']);
    expect(cache.stats()).toMatchObject({ agents: 2, oversized: 0 });
  });

  it('remembers at most maxAgents over-budget agents and maxAgents failed loads', async () => {
    const clock = new ManualClock();
    const huge = feedbackOf(50, 100);
    const s = countingSource((id) => (id.startsWith('huge') ? huge : new Error('agents service down')));
    const cache = new CachedAgentFeedback(s, { maxAgents: 4, maxBytes: feedbackEntryBytes(huge) - 1, clock });
    for (let i = 0; i < 10; i++) {
      await cache.forRequest(`huge-${i}`, 1, 'agua', 'forward');
      await cache.forRequest(`down-${i}`, 1, 'agua', 'forward');
    }
    expect(cache.stats()).toMatchObject({ agents: 0, oversized: 4, failed: 4 });
    // the most recent are the ones remembered: neither is asked again
    await cache.forRequest('huge-9', 1, 'agua', 'forward');
    await cache.forRequest('down-9', 1, 'agua', 'forward');
    expect(s.calls).toHaveLength(20);
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
