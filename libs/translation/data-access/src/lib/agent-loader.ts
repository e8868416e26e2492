import type { LoadedAgent } from '@gaia/translation/llm';
import { AgentCache, type AgentCacheStats } from './agent-cache';
import type { AgentArtifacts, AgentArtifactsPort } from './agent-artifacts.port';
import type { TranslationAgentProfile } from './agent-directory.port';
import type { AgentBrain } from './engine-knowledge';

export const AGENT_LOADER = Symbol('AGENT_LOADER');

export class AgentArtifactsMissingError extends Error {
  constructor(readonly agentId: string) {
    super(`No learned artifacts for agent ${agentId}`);
  }
}

export interface AgentLoaderOptions {
  /** LRU budget of loaded agents, in bytes. */
  maxBytes: number;
  maxEntries?: number;
}

/**
 * Turns an agent profile into a `LoadedAgent`: the heavy part (model + index, per artifacts version)
 * comes from the LRU `AgentCache` — lazily loaded, one shared load per agent — and the light settings
 * (engine, notes, description) from the profile of each request, so edits apply at once.
 */
export class AgentLoader {
  private readonly cache: AgentCache<AgentBrain, TranslationAgentProfile>;

  constructor(
    private readonly artifacts: AgentArtifactsPort,
    private readonly build: (artifacts: AgentArtifacts, agent: { agentId: string; srcLang: string; tgtLang: string }) => AgentBrain,
    options: AgentLoaderOptions,
  ) {
    this.cache = new AgentCache<AgentBrain, TranslationAgentProfile>((id, version, profile) => this.loadBrain(id, version, profile), options);
  }

  async load(profile: TranslationAgentProfile): Promise<LoadedAgent> {
    if (!profile.artifactsVersion) throw new AgentArtifactsMissingError(profile.id);
    const brain = await this.cache.get(profile.id, profile.artifactsVersion, profile);
    return {
      id: profile.id,
      srcLang: profile.srcLang,
      tgtLang: profile.tgtLang,
      engine: profile.engine,
      ownerNotes: profile.coreMemory,
      customPrompt: profile.customPrompt,
      learnedSummary: brain.learnedSummary,
      knowledge: brain.knowledge,
      approxBytes: brain.approxBytes,
    };
  }

  /** Whether an agent's current version is loaded (warm). */
  isWarm(agentId: string): boolean {
    return this.cache.has(agentId);
  }

  invalidate(agentId: string): void {
    this.cache.invalidate(agentId);
  }

  stats(): AgentCacheStats {
    return this.cache.stats();
  }

  private async loadBrain(id: string, version: string, profile: TranslationAgentProfile): Promise<AgentBrain> {
    const bytes = await this.artifacts.load(id, version, profile.artifactKey);
    if (!bytes) throw new AgentArtifactsMissingError(id);
    return this.build(bytes, { agentId: id, srcLang: profile.srcLang, tgtLang: profile.tgtLang });
  }
}
