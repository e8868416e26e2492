/**
 * LRU of loaded agents under a memory budget.
 *
 * - Lazy: an agent is loaded on its first request.
 * - Single flight: concurrent requests for the same agent (and version) share one load.
 * - Versioned: a request naming a newer artifacts version reloads; the old entry is dropped.
 * - Budget: after each load, least-recently-used entries are evicted until the total `approxBytes`
 *   fits `maxBytes` (the entry just loaded always stays, even if alone it exceeds the budget).
 * - Failed loads are not cached: the next request tries again.
 */
export interface Sized {
  approxBytes: number;
}

export interface AgentCacheOptions {
  maxBytes: number;
  maxEntries?: number;
}

export interface AgentCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  loads: number;
  evictions: number;
}

interface Entry<T> {
  version: string;
  value: T;
}

export class AgentCache<T extends Sized, C = undefined> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inflight = new Map<string, Promise<T>>();
  private bytes = 0;
  private readonly counters = { hits: 0, misses: 0, loads: 0, evictions: 0 };

  constructor(
    private readonly loader: (key: string, version: string, context: C) => Promise<T>,
    private readonly options: AgentCacheOptions,
  ) {}

  /** `context` is handed to the loader when this call triggers the load. */
  async get(key: string, version: string, context?: C): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && entry.version === version) {
      this.counters.hits++;
      this.entries.delete(key); // re-insert: most recently used last
      this.entries.set(key, entry);
      return entry.value;
    }
    this.counters.misses++;
    const flightKey = `${key}\u0000${version}`;
    const pending = this.inflight.get(flightKey);
    if (pending) return pending;
    const load = (async () => {
      try {
        this.counters.loads++;
        const value = await this.loader(key, version, context as C);
        this.store(key, version, value);
        return value;
      } finally {
        this.inflight.delete(flightKey);
      }
    })();
    this.inflight.set(flightKey, load);
    return load;
  }

  /** Drops an agent (deleted, or its artifacts changed). */
  invalidate(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.value.approxBytes;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  stats(): AgentCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, ...this.counters };
  }

  private store(key: string, version: string, value: T): void {
    const current = this.entries.get(key);
    if (current) {
      // A newer version wins; an older load finishing late does not replace a newer one.
      if (current.version !== version && compareVersions(current.version, version) > 0) return;
      this.invalidate(key);
    }
    this.entries.set(key, { version, value });
    this.bytes += value.approxBytes;
    const maxEntries = this.options.maxEntries ?? Number.POSITIVE_INFINITY;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.options.maxBytes && this.entries.size <= maxEntries) break;
      if (k === key) continue;
      this.entries.delete(k);
      this.bytes -= e.value.approxBytes;
      this.counters.evictions++;
    }
  }
}

/** Versions are opaque strings; numeric-looking ones (timestamps, counters) compare numerically. */
function compareVersions(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return 0;
}
