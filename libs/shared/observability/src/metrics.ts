import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Injection token of the process's metrics (one registry per Nest app). */
export const METRICS = Symbol('METRICS');

/** Request latency buckets (seconds): from cached reads to long uploads and streamed translations. */
const HTTP_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type TranslationOutcome = 'success' | 'fallback' | 'error';

export interface AgentCacheSnapshot {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

/**
 * Prometheus metrics of one Gaia process (prom-client), served at GET /metrics: request latency per route,
 * translations by engine and outcome, the translation service's agent cache, and gauges read at scrape
 * time (job queue depth, outbox lag and dead letters) registered by the process's modules.
 */
export class GaiaMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly translations: Counter<'engine' | 'outcome'>;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry, prefix: 'gaia_' });
    this.httpDuration = new Histogram({
      name: 'gaia_http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_SECONDS_BUCKETS,
      registers: [this.registry],
    });
    this.translations = new Counter({
      name: 'gaia_translations_total',
      help: 'Translations by engine (builtin, llm) and outcome (success, fallback to the built-in engine, error)',
      labelNames: ['engine', 'outcome'],
      registers: [this.registry],
    });
  }

  countTranslation(engine: string, outcome: TranslationOutcome): void {
    this.translations.inc({ engine, outcome });
  }

  /** A gauge whose values are read when Prometheus scrapes (e.g. from the database). */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: (set: (labels: Partial<Record<L, string>>, value: number) => void) => Promise<void> | void,
  ): void {
    if (this.registry.getSingleMetric(name)) return;
    new Gauge<L>({
      name,
      help,
      labelNames: [...labelNames],
      registers: [this.registry],
      async collect() {
        this.reset();
        await read((labels, value) => this.set(labels, value));
      },
    });
  }

  /** The translation service's LRU of loaded agents. */
  agentCache(read: () => AgentCacheSnapshot): void {
    this.gauge('gaia_agent_cache_bytes', 'Approximate bytes of the loaded agents in the cache', [], (set) => set({}, read().bytes));
    this.gauge('gaia_agent_cache_entries', 'Agents loaded in the cache', [], (set) => set({}, read().entries));
    // Monotonic counts kept by the cache itself, exposed as counters.
    for (const [name, help, pick] of [
      ['gaia_agent_cache_hits_total', 'Translations served by an already loaded agent', (s: AgentCacheSnapshot) => s.hits],
      ['gaia_agent_cache_misses_total', 'Translations that had to load the agent', (s: AgentCacheSnapshot) => s.misses],
      ['gaia_agent_cache_evictions_total', 'Agents evicted to stay within the cache budget', (s: AgentCacheSnapshot) => s.evictions],
    ] as const) {
      if (this.registry.getSingleMetric(name)) continue;
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(pick(read()));
        },
      });
    }
  }

  /** Express middleware: observes each request's latency under its route pattern (not the raw path). */
  httpMiddleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const end = this.httpDuration.startTimer();
      res.once('finish', () => {
        const pattern = (req as Request & { route?: { path?: string } }).route?.path;
        const route = pattern ? `${req.baseUrl ?? ''}${pattern}` : 'unmatched';
        end({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    };
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
