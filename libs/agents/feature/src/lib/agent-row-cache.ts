import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { AGENT_CHANGES, AGENT_REPOSITORY, type AgentChangesPort, type AgentEntity, type AgentRepositoryPort } from '@gaia/agents/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import { CLOCK, type Clock } from '@gaia/shared/kernel';

/** A cached agent row is read again after this long even without a change notice (safety net). */
export const AGENT_CACHE_TTL_MS = 60_000;
/** Agent rows cached per process at most (the oldest goes first). */
export const AGENT_CACHE_MAX = 5_000;

/**
 * Agent rows for the access check of every translation (issue #13: no database round trip for a busy agent).
 * Any change of the row on any replica (visibility, sharing, new version, feedback, deletion) reaches every
 * process through `AgentChangesPort` (a trigger + LISTEN/NOTIFY) and drops the entry; while those notices
 * cannot be heard nothing is served from memory.
 */
@Injectable()
export class AgentRowCache {
  private readonly rows = new Map<string, { agent: AgentEntity; at: number }>();
  private generation = 0;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    @Inject(AGENT_CHANGES) private readonly changes: AgentChangesPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    changes.subscribe((id) => {
      this.generation++;
      if (id === null) this.rows.clear();
      else this.rows.delete(id);
    });
  }

  /**
   * Read-your-writes on this replica: `work` (a change of agent rows) is answered only once this process has heard
   * the change, so the caller's next access check never sees the row as it was. Other replicas hear it within the
   * notice's delivery time.
   */
  async afterChange<T>(work: Promise<T>): Promise<T> {
    const result = await work;
    await this.changes.settle();
    return result;
  }

  async find(agentId: string): Promise<AgentEntity | null> {
    const hit = this.rows.get(agentId);
    if (hit && this.changes.watching && this.clock.now().getTime() - hit.at < AGENT_CACHE_TTL_MS) return hit.agent;
    const generation = this.generation;
    const agent = await this.agents.findById(this.ds.manager, agentId);
    if (agent && this.changes.watching && generation === this.generation) {
      this.rows.delete(agentId);
      if (this.rows.size >= AGENT_CACHE_MAX) this.rows.delete(this.rows.keys().next().value as string);
      this.rows.set(agentId, { agent, at: this.clock.now().getTime() });
    }
    return agent;
  }
}
