import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { QUALITY_HISTORY_MAX, resourceSizeCategory, type AgentQuality, type AgentQualitySummary, type EventMap, type QualityAb } from '@gaia/contracts';
import { QUALITY_REPORT_REPOSITORY, type QualityReportEntity, type QualityReportRepositoryPort } from '@gaia/agents/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';

/**
 * The quality report of each agent version: recorded when its measurement lands (retrieval.agent-quality-measured.v1
 * carries what the build measured on its held-out pairs, after the version became ready) and shown as the `quality` field of the agent's record, with
 * the history across versions and the resource-size category of the spec.
 */
@Injectable()
export class QualityReportUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(QUALITY_REPORT_REPOSITORY) private readonly reports: QualityReportRepositoryPort,
  ) {}

  /** In the event's transaction. */
  async measured(em: EntityManager, p: EventMap['retrieval.agent-quality-measured.v1']): Promise<void> {
    const s = p.quality.scores;
    await this.reports.insert(em, {
      agentId: p.agentId,
      version: p.version,
      measured: p.quality.measured,
      heldOut: p.quality.heldOut,
      pairCount: p.pairCount,
      chrf: s?.chrf ?? null,
      bleu: s?.bleu ?? null,
      margin: s?.margin ?? null,
      evaluationMs: p.quality.evaluationMs,
      ab: null,
      createdAt: new Date(p.learnedAt),
    });
  }

  /** In the event's transaction: the LLM A/B of a version (a report deleted with its agent is not recreated). */
  async recordAb(em: EntityManager, agentId: string, version: string, ab: QualityAb): Promise<void> {
    await this.reports.setAb(em, agentId, version, ab);
  }

  /** The `quality_summary` of each agent of a list (the viewer's own and shared ones); agents without a report are absent. */
  async summaries(agentIds: readonly string[]): Promise<Map<string, AgentQualitySummary>> {
    const latest = await this.reports.latest(this.ds.manager, agentIds);
    return new Map(latest.map((r) => [r.agentId, summaryOf(r)]));
  }

  /** The agent's `quality` field: its newest report and the history (oldest first); null before the first measured build. */
  async forAgent(agentId: string): Promise<AgentQuality | null> {
    const history = await this.reports.recent(this.ds.manager, agentId, QUALITY_HISTORY_MAX);
    const last = history[history.length - 1];
    if (!last) return null;
    return {
      ...summaryOf(last),
      ab: last.ab,
      history: history.map((h) => ({
        version: h.version,
        chrf: h.chrf,
        bleu: h.bleu,
        margin: h.margin,
        held_out: h.heldOut,
        pair_count: h.pairCount,
        created_at: h.createdAt.toISOString(),
      })),
    };
  }
}

/** A report's scores, size and category (the `quality` field without its A/B and history). */
function summaryOf(r: QualityReportEntity): AgentQualitySummary {
  return {
    version: r.version,
    measured: r.measured,
    chrf: r.chrf,
    bleu: r.bleu,
    margin: r.margin,
    held_out: r.heldOut,
    pair_count: r.pairCount,
    category: resourceSizeCategory(r.pairCount),
    created_at: r.createdAt.toISOString(),
  };
}
