import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QualityAb } from '@gaia/contracts';

/** One agent version's quality report (held-out scores; null scores when too small to measure). */
export interface QualityReportEntity {
  agentId: string;
  version: string;
  measured: boolean;
  heldOut: number;
  pairCount: number;
  chrf: number | null;
  bleu: number | null;
  margin: number | null;
  evaluationMs: number;
  ab: QualityAb | null;
  createdAt: Date;
}

/** Persistence of quality reports; every query is scoped to one agent. */
export interface QualityReportRepositoryPort {
  /** Idempotent per (agent, version): a redelivered event keeps the first report. */
  insert(em: EntityManager, report: QualityReportEntity): Promise<void>;
  /** The agent's newest `limit` reports, oldest first. */
  recent(em: EntityManager, agentId: string, limit: number): Promise<QualityReportEntity[]>;
  setAb(em: EntityManager, agentId: string, version: string, ab: QualityAb): Promise<void>;
  /** The newest report of each of `agentIds` (agents without one are absent). */
  latest(em: EntityManager, agentIds: readonly string[]): Promise<QualityReportEntity[]>;
}
export const QUALITY_REPORT_REPOSITORY = Symbol('QUALITY_REPORT_REPOSITORY');

interface Row {
  agent_id: string;
  version: string;
  measured: boolean;
  held_out: number;
  pair_count: number;
  chrf: number | null;
  bleu: number | null;
  margin: number | null;
  evaluation_ms: number;
  ab: QualityAb | null;
  created_at: Date;
}

const toEntity = (r: Row): QualityReportEntity => ({
  agentId: r.agent_id,
  version: r.version,
  measured: r.measured,
  heldOut: r.held_out,
  pairCount: r.pair_count,
  chrf: r.chrf,
  bleu: r.bleu,
  margin: r.margin,
  evaluationMs: r.evaluation_ms,
  ab: r.ab,
  createdAt: new Date(r.created_at),
});

@Injectable()
export class PostgresQualityReportRepository implements QualityReportRepositoryPort {
  async insert(em: EntityManager, r: QualityReportEntity): Promise<void> {
    await em.query(
      `INSERT INTO agent_quality_report (agent_id, version, measured, held_out, pair_count, chrf, bleu, margin, evaluation_ms, ab, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (agent_id, version) DO NOTHING`,
      [
        r.agentId,
        r.version,
        r.measured,
        r.heldOut,
        r.pairCount,
        r.chrf,
        r.bleu,
        r.margin,
        Math.round(r.evaluationMs),
        r.ab ? JSON.stringify(r.ab) : null,
        r.createdAt,
      ],
    );
  }

  async recent(em: EntityManager, agentId: string, limit: number): Promise<QualityReportEntity[]> {
    const rows: Row[] = await em.query(`SELECT * FROM agent_quality_report WHERE agent_id = $1 ORDER BY created_at DESC, version DESC LIMIT $2`, [
      agentId,
      limit,
    ]);
    return rows.map(toEntity).reverse();
  }

  async latest(em: EntityManager, agentIds: readonly string[]): Promise<QualityReportEntity[]> {
    if (agentIds.length === 0) return [];
    const rows: Row[] = await em.query(
      `SELECT DISTINCT ON (agent_id) * FROM agent_quality_report WHERE agent_id = ANY($1::text[]) ORDER BY agent_id, created_at DESC, version DESC`,
      [agentIds],
    );
    return rows.map(toEntity);
  }

  async setAb(em: EntityManager, agentId: string, version: string, ab: QualityAb): Promise<void> {
    await em.query(`UPDATE agent_quality_report SET ab = $3 WHERE agent_id = $1 AND version = $2`, [agentId, version, JSON.stringify(ab)]);
  }
}
