import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AgentDto, AgentRecord, AgentView, PublicAgentDto } from '@gaia/contracts';
import { AGENT_REPOSITORY, type AgentEntity, type AgentRepositoryPort } from '@gaia/agents/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import { authorize, normalizeEmail, type AgentNeed, type AgentRole, type Viewer } from '../agent-policy';
import { toAgentDto, toAgentRecord, toAgentView, toPublicAgentDto } from '../agent.mapper';
import { AgentRowCache } from '../agent-row-cache';
import { QualityReportUseCase } from '../quality/quality-report.use-case';

/** Reads: one agent as a viewer may see it, public list, the viewer's own and shared agents. */
@Injectable()
export class AgentQueriesUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(AGENT_REPOSITORY) private readonly agents: AgentRepositoryPort,
    private readonly quality: QualityReportUseCase,
    private readonly rows: AgentRowCache,
  ) {}

  async get(agentId: string, viewer: Viewer | null, channel: 'session' | 'api-key' = 'session'): Promise<AgentView> {
    const found = await this.agents.findById(this.ds.manager, agentId);
    const { agent, role } = authorize(found, viewer, 'read');
    return { ...toAgentView(agent, role, channel), quality: await this.quality.forAgent(agent.id) };
  }

  /** `withRecord`: the internal record too (a translation: access check and resolve in one read). */
  async access(
    agentId: string,
    viewer: Viewer | null,
    need: AgentNeed,
    withRecord = false,
  ): Promise<{ role: AgentRole; agent: AgentDto; record?: AgentRecord }> {
    const found = await this.rows.find(agentId); // cached, dropped on any change of the row (every translation asks)
    const what = need === 'owner' ? 'manage this agent' : 'change this agent';
    const { agent, role } = authorize(found, viewer, need, what);
    return withRecord ? { role, agent: toAgentDto(agent), record: toAgentRecord(agent) } : { role, agent: toAgentDto(agent) };
  }

  /** No access check (internal callers); null when unknown or deleted. */
  async resolve(agentId: string): Promise<AgentRecord | null> {
    const a = await this.agents.findById(this.ds.manager, agentId);
    return a && !a.deletedAt ? toAgentRecord(a) : null;
  }

  async listPublic(limit: number, afterId: string | null = null): Promise<PublicAgentDto[]> {
    return (await this.agents.listPublic(this.ds.manager, limit, afterId)).map(toPublicAgentDto);
  }

  /** Owned and shared agents as one newest-first sequence (a keyset page when `limit` is set), split by role. */
  async listMine(
    viewer: Viewer,
    page: { limit: number | null; afterId: string | null } = { limit: null, afterId: null },
  ): Promise<{ owned: AgentDto[]; shared: AgentDto[]; nextAfterId: string | null }> {
    const email = normalizeEmail(viewer.email);
    const rows = await this.agents.listMine(this.ds.manager, viewer.uid, email, page.limit === null ? null : page.limit + 1, page.afterId);
    const items = page.limit === null ? rows : rows.slice(0, page.limit);
    const more = page.limit !== null && rows.length > page.limit && items.length > 0;
    const quality = await this.quality.summaries(items.map((a) => a.id));
    const withQuality = (a: AgentEntity): AgentDto => ({ ...toAgentDto(a), quality_summary: quality.get(a.id) ?? null });
    return {
      owned: items.filter((a) => a.ownerId === viewer.uid).map(withQuality),
      shared: items.filter((a) => a.ownerId !== viewer.uid).map(withQuality),
      nextAfterId: more ? items[items.length - 1].id : null,
    };
  }
}
