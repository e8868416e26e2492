import { Logger } from '@nestjs/common';
import type { AgentFeedback } from '@gaia/contracts';
import { systemClock, type Clock } from '@gaia/shared/kernel';
import { CONSISTENT_PAGES_READS, readConsistentPages, type RpcClient } from '@gaia/shared/messaging';
import {
  matchGlossary,
  nearestExamples,
  NO_FEEDBACK,
  type Direction,
  type FeedbackExample,
  type GlossaryEntry,
  type RequestFeedback,
} from '@gaia/translation/llm';
import type { AgentFeedbackPort, AgentFeedbackSource } from './agent-feedback.port';

/** Corrections handed to an engine per request (the nearest by word overlap; an identical one always first). */
export const FEEDBACK_EXAMPLES_PER_REQUEST = 8;
/** Agents whose feedback a replica keeps (least recently used dropped first). */
export const FEEDBACK_CACHE_AGENTS = 512;
/** Byte budget of the cache when none is given (module tests); apps take TRANSLATION_FEEDBACK_CACHE_MB of their validated config. */
export const FEEDBACK_CACHE_DEFAULT_BYTES = 64 * 1024 * 1024;
/** After a failed load, the agent's translations answer without feedback for this long before the next attempt… */
export const FEEDBACK_RETRY_FIRST_MS = 1000;
/** …doubling after each failed attempt up to this. */
export const FEEDBACK_RETRY_MAX_MS = 30_000;
/** Bytes of a JS string per character (UTF-16). */
const BYTES_PER_CHAR = 2;
/** Rough bytes of one small object (a correction or term, each direction) and of one cache entry, besides their strings. */
const OBJECT_OVERHEAD_BYTES = 64;

/**
 * What an agent's feedback holds in this cache, in bytes: the strings (held once: the reverse direction reuses them)
 * and an object per correction and term in each direction.
 */
export function feedbackEntryBytes(f: AgentFeedback): number {
  let chars = 0;
  for (const c of f.corrections) chars += c.id.length + c.source.length + c.target.length;
  for (const g of f.glossary) chars += g.term.length + g.translation.length;
  return OBJECT_OVERHEAD_BYTES + chars * BYTES_PER_CHAR + (f.corrections.length + f.glossary.length) * 2 * OBJECT_OVERHEAD_BYTES;
}

export interface FeedbackCacheOptions {
  /** Agents kept at most (default FEEDBACK_CACHE_AGENTS); also the most over-budget agents and failed loads remembered. */
  maxAgents?: number;
  /** Bytes kept at most (feedbackEntryBytes of every kept agent; default FEEDBACK_CACHE_DEFAULT_BYTES). */
  maxBytes?: number;
  /** Time of the failed-load backoff. */
  clock?: Clock;
}

interface Oriented {
  examples: FeedbackExample[];
  glossary: GlossaryEntry[];
}
interface Entry {
  version: number;
  forward: Oriented;
  reverse: Oriented;
  bytes: number;
}
/** A failed load: no attempt before `retryAt`; the next wait is `nextWaitMs`. */
interface Failure {
  retryAt: number;
  nextWaitMs: number;
}

/**
 * agents.feedback-page.v1 over RPC: page after page (each well below NATS's 1 MiB per message), started over when
 * the feedback version changed between two pages (one consistent version, or an error after CONSISTENT_PAGES_READS).
 */
export class RpcAgentFeedbackSource implements AgentFeedbackSource {
  constructor(private readonly rpc: Pick<RpcClient, 'call'>) {}

  async load(agentId: string): Promise<AgentFeedback> {
    const pages = await readConsistentPages((cursor) => this.rpc.call('agents.feedback-page.v1', { agentId, cursor }), {
      conflict: () => new Error(`the feedback of agent ${agentId} changed during ${CONSISTENT_PAGES_READS} reads`),
    });
    return { version: pages[0].version, corrections: pages.flatMap((p) => p.corrections), glossary: pages.flatMap((p) => p.glossary) };
  }
}

/**
 * The per-agent, per-version cache of `AgentFeedbackPort` (an agent without feedback costs no call: version 0), least
 * recently used dropped first beyond `maxAgents` agents or `maxBytes` bytes. An agent whose feedback alone exceeds the
 * budget is not kept: its version is remembered and its translations answer without feedback until the version
 * changes (then it is loaded again, once), instead of each reading it all again. A failed load is remembered per agent
 * for FEEDBACK_RETRY_FIRST_MS, doubling up to FEEDBACK_RETRY_MAX_MS: meanwhile its translations answer without feedback
 * instead of each reading it again. Both memories hold at most `maxAgents` agents (the oldest forgotten first).
 */
export class CachedAgentFeedback implements AgentFeedbackPort {
  private readonly cache = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry | null>>();
  private readonly failures = new Map<string, Failure>();
  /** Agents whose feedback exceeds the whole budget: the version that did. */
  private readonly oversized = new Map<string, number>();
  private readonly logger = new Logger('AgentFeedback');
  private readonly maxAgents: number;
  private readonly maxBytes: number;
  private readonly clock: Clock;
  private bytes = 0;

  constructor(
    private readonly source: AgentFeedbackSource,
    options: FeedbackCacheOptions = {},
  ) {
    this.maxAgents = options.maxAgents ?? FEEDBACK_CACHE_AGENTS;
    this.maxBytes = options.maxBytes ?? FEEDBACK_CACHE_DEFAULT_BYTES;
    this.clock = options.clock ?? systemClock;
  }

  stats(): { agents: number; bytes: number; maxBytes: number; oversized: number; failed: number } {
    return { agents: this.cache.size, bytes: this.bytes, maxBytes: this.maxBytes, oversized: this.oversized.size, failed: this.failures.size };
  }

  async forRequest(agentId: string, version: number, text: string, direction: Direction): Promise<RequestFeedback> {
    if (version === 0) return NO_FEEDBACK;
    if ((this.oversized.get(agentId) ?? -1) >= version) return NO_FEEDBACK;
    const failed = this.failures.get(agentId);
    const cached = this.cache.get(agentId);
    if (failed && this.clock.now().getTime() < failed.retryAt && !(cached && cached.version >= version)) return NO_FEEDBACK;
    let entry: Entry | null;
    try {
      entry = await this.entry(agentId, version);
    } catch (e) {
      // the translation still answers, from the agent's learned memory only
      this.logger.warn(`feedback of agent ${agentId} unavailable: ${(e as Error).message}`);
      return NO_FEEDBACK;
    }
    if (!entry) return NO_FEEDBACK; // over the budget
    const side = direction === 'forward' ? entry.forward : entry.reverse;
    if (side.examples.length === 0 && side.glossary.length === 0) return NO_FEEDBACK;
    return { examples: nearestExamples(text, side.examples, FEEDBACK_EXAMPLES_PER_REQUEST), glossary: matchGlossary(text, side.glossary) };
  }

  /** The agent's feedback of at least `version`; null when it exceeds the whole budget. */
  private async entry(agentId: string, version: number): Promise<Entry | null> {
    const hit = this.cache.get(agentId);
    if (hit && hit.version >= version) {
      this.cache.delete(agentId); // most recently used last
      this.cache.set(agentId, hit);
      return hit;
    }
    const key = `${agentId}\u0000${version}`;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.source.load(agentId).then((f) => {
        const forward: Oriented = {
          examples: f.corrections.map((c) => ({ id: c.id, source: c.source, target: c.target })),
          glossary: f.glossary.map((g) => ({ term: g.term, translation: g.translation, caseSensitive: g.case_sensitive })),
        };
        const reverse: Oriented = {
          examples: forward.examples.map((e) => ({ id: e.id, source: e.target, target: e.source })),
          glossary: forward.glossary.map((g) => ({ term: g.translation, translation: g.term, caseSensitive: g.caseSensitive })),
        };
        const entry: Entry = { version: Math.max(f.version, version), forward, reverse, bytes: feedbackEntryBytes(f) };
        this.failures.delete(agentId);
        return this.keep(agentId, entry) ? entry : null;
      });
      this.loading.set(key, pending);
      void pending.catch(() => this.failed(agentId));
      void pending.then(
        () => this.loading.delete(key),
        () => this.loading.delete(key),
      );
    }
    return pending;
  }

  /** Keeps a loaded entry; false when it exceeds the whole budget (remembered: not loaded again before its version changes). */
  private keep(agentId: string, entry: Entry): boolean {
    const current = this.cache.get(agentId);
    if (current && current.version > entry.version) return true;
    this.drop(agentId);
    if (entry.bytes > this.maxBytes) {
      this.logger.warn(
        `feedback of agent ${agentId} (${entry.bytes} bytes) exceeds the cache budget of ${this.maxBytes} bytes: its translations answer without it until it changes`,
      );
      this.remember(this.oversized, agentId, entry.version);
      return false;
    }
    this.oversized.delete(agentId);
    this.cache.set(agentId, entry);
    this.bytes += entry.bytes;
    while (this.cache.size > this.maxAgents || this.bytes > this.maxBytes) this.drop(this.cache.keys().next().value as string);
    return true;
  }

  /** Sets `agentId` in a per-agent memory as its newest entry, forgetting the oldest beyond `maxAgents`. */
  private remember<V>(memory: Map<string, V>, agentId: string, value: V): void {
    memory.delete(agentId);
    memory.set(agentId, value);
    while (memory.size > this.maxAgents) memory.delete(memory.keys().next().value as string);
  }

  private drop(agentId: string): void {
    const entry = this.cache.get(agentId);
    if (!entry) return;
    this.cache.delete(agentId);
    this.bytes -= entry.bytes;
  }

  private failed(agentId: string): void {
    const waitMs = this.failures.get(agentId)?.nextWaitMs ?? FEEDBACK_RETRY_FIRST_MS;
    this.remember(this.failures, agentId, { retryAt: this.clock.now().getTime() + waitMs, nextWaitMs: Math.min(waitMs * 2, FEEDBACK_RETRY_MAX_MS) });
  }
}
