import { Logger } from '@nestjs/common';
import type { RpcClient } from '@gaia/shared/messaging';
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

interface Oriented {
  examples: FeedbackExample[];
  glossary: GlossaryEntry[];
}
interface Entry {
  version: number;
  forward: Oriented;
  reverse: Oriented;
}

/** agents.feedback.v1 over RPC. */
export class RpcAgentFeedbackSource implements AgentFeedbackSource {
  constructor(private readonly rpc: Pick<RpcClient, 'call'>) {}

  load(agentId: string) {
    return this.rpc.call('agents.feedback.v1', { agentId });
  }
}

/** The per-agent, per-version cache of `AgentFeedbackPort` (an agent without feedback costs no call: version 0). */
export class CachedAgentFeedback implements AgentFeedbackPort {
  private readonly cache = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();
  private readonly logger = new Logger('AgentFeedback');

  constructor(
    private readonly source: AgentFeedbackSource,
    private readonly maxAgents = FEEDBACK_CACHE_AGENTS,
  ) {}

  async forRequest(agentId: string, version: number, text: string, direction: Direction): Promise<RequestFeedback> {
    if (version === 0) return NO_FEEDBACK;
    let entry: Entry;
    try {
      entry = await this.entry(agentId, version);
    } catch (e) {
      // the translation still answers, from the agent's learned memory only
      this.logger.warn(`feedback of agent ${agentId} unavailable: ${(e as Error).message}`);
      return NO_FEEDBACK;
    }
    const side = direction === 'forward' ? entry.forward : entry.reverse;
    if (side.examples.length === 0 && side.glossary.length === 0) return NO_FEEDBACK;
    return { examples: nearestExamples(text, side.examples, FEEDBACK_EXAMPLES_PER_REQUEST), glossary: matchGlossary(text, side.glossary) };
  }

  private async entry(agentId: string, version: number): Promise<Entry> {
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
        const entry: Entry = { version: Math.max(f.version, version), forward, reverse };
        const current = this.cache.get(agentId);
        if (!current || current.version <= entry.version) {
          this.cache.delete(agentId);
          this.cache.set(agentId, entry);
          while (this.cache.size > this.maxAgents) this.cache.delete(this.cache.keys().next().value as string);
        }
        return entry;
      });
      this.loading.set(key, pending);
      void pending.then(
        () => this.loading.delete(key),
        () => this.loading.delete(key),
      );
    }
    return pending;
  }
}
