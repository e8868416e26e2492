import { AgentCache } from './agent-cache';

interface V {
  approxBytes: number;
  tag: string;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('AgentCache', () => {
  it('loads lazily and shares one load between concurrent requests', async () => {
    const gate = deferred<V>();
    const calls: string[] = [];
    const cache = new AgentCache<V>(
      (k) => {
        calls.push(k);
        return gate.promise;
      },
      { maxBytes: 100 },
    );
    expect(calls).toEqual([]);
    const all = Promise.all([cache.get('a', '1'), cache.get('a', '1'), cache.get('a', '1')]);
    gate.resolve({ approxBytes: 10, tag: 'a1' });
    const values = await all;
    expect(calls).toEqual(['a']);
    expect(new Set(values).size).toBe(1);
    await cache.get('a', '1');
    expect(cache.stats()).toMatchObject({ loads: 1, hits: 1, entries: 1, bytes: 10 });
  });

  it('evicts least recently used entries to stay within the memory budget', async () => {
    const cache = new AgentCache<V>(async (k) => ({ approxBytes: 40, tag: k }), { maxBytes: 100 });
    await cache.get('a', '1');
    await cache.get('b', '1');
    await cache.get('a', '1'); // a is now most recent
    await cache.get('c', '1'); // 120 > 100: evict b
    expect(cache.keys()).toEqual(['a', 'c']);
    expect(cache.stats()).toMatchObject({ bytes: 80, evictions: 1 });
  });

  it('keeps an entry bigger than the budget alone', async () => {
    const cache = new AgentCache<V>(async (k) => ({ approxBytes: k === 'big' ? 500 : 10, tag: k }), { maxBytes: 100 });
    await cache.get('a', '1');
    await cache.get('big', '1');
    expect(cache.keys()).toEqual(['big']);
  });

  it('reloads on a new version and ignores a stale load finishing late', async () => {
    const gates = new Map<string, ReturnType<typeof deferred<V>>>();
    const cache = new AgentCache<V>(
      (k, v) => {
        const g = deferred<V>();
        gates.set(v, g);
        return g.promise;
      },
      { maxBytes: 1000 },
    );
    const old = cache.get('a', '1');
    const fresh = cache.get('a', '2');
    gates.get('2')!.resolve({ approxBytes: 5, tag: 'v2' });
    await fresh;
    gates.get('1')!.resolve({ approxBytes: 5, tag: 'v1' });
    await old;
    expect((await cache.get('a', '2')).tag).toBe('v2');
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 5, loads: 2 });
  });

  it('does not cache failures, and invalidate drops an entry', async () => {
    let fail = true;
    const cache = new AgentCache<V>(
      async (k) => {
        if (fail) throw new Error('storage down');
        return { approxBytes: 1, tag: k };
      },
      { maxBytes: 10 },
    );
    await expect(cache.get('a', '1')).rejects.toThrow('storage down');
    fail = false;
    expect((await cache.get('a', '1')).tag).toBe('a');
    cache.invalidate('a');
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('honours maxEntries', async () => {
    const cache = new AgentCache<V>(async (k) => ({ approxBytes: 1, tag: k }), { maxBytes: 1000, maxEntries: 2 });
    for (const k of ['a', 'b', 'c']) await cache.get(k, '1');
    expect(cache.keys()).toEqual(['b', 'c']);
  });
});
