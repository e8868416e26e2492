import type { EntityManager } from 'typeorm';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SchemaBundle } from '@gaia/shared/database';

export type AgentIndexStatus = 'building' | 'ready' | 'failed';

export interface AgentIndexState {
  agentId: string;
  status: AgentIndexStatus;
  /** Version being built or last built (from ingestion.pairs-stored.v1). */
  version: string;
  /** Last version that is ready (served), kept while a newer one builds. */
  readyVersion: string | null;
  artifactKey: string | null;
  learnedSummary: string | null;
  pairCount: number;
  error: string | null;
  updatedAt: Date;
}

export class RetrievalInit1767300000000 implements MigrationInterface {
  name = 'RetrievalInit1767300000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE retrieval_agent_state (
        agent_id text PRIMARY KEY,
        src_lang text NOT NULL DEFAULT 'und',
        tgt_lang text NOT NULL DEFAULT 'und',
        status text NOT NULL CHECK (status IN ('building', 'ready', 'failed')),
        version text NOT NULL,
        ready_version text,
        artifact_key text,
        learned_summary text,
        pair_count int NOT NULL DEFAULT 0,
        error text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE retrieval_agent_state');
  }
}

export const retrievalSchema: SchemaBundle = { name: 'retrieval', entities: [], migrations: [RetrievalInit1767300000000] };

type Row = {
  agent_id: string;
  status: AgentIndexStatus;
  version: string;
  ready_version: string | null;
  artifact_key: string | null;
  learned_summary: string | null;
  pair_count: number;
  error: string | null;
  updated_at: Date;
};

const toState = (r: Row): AgentIndexState => ({
  agentId: r.agent_id,
  status: r.status,
  version: r.version,
  readyVersion: r.ready_version,
  artifactKey: r.artifact_key,
  learnedSummary: r.learned_summary,
  pairCount: r.pair_count,
  error: r.error,
  updatedAt: r.updated_at,
});

/** The retrieval service's own table: which version of each agent is built, building or failed. */
export class RetrievalStateRepository {
  async get(em: EntityManager, agentId: string): Promise<AgentIndexState | null> {
    const rows: Row[] = await em.query(`SELECT * FROM retrieval_agent_state WHERE agent_id = $1`, [agentId]);
    return rows[0] ? toState(rows[0]) : null;
  }

  async markBuilding(em: EntityManager, agentId: string, version: string, langs: { srcLang: string; tgtLang: string }): Promise<void> {
    await em.query(
      `INSERT INTO retrieval_agent_state (agent_id, status, version, src_lang, tgt_lang) VALUES ($1, 'building', $2, $3, $4)
       ON CONFLICT (agent_id) DO UPDATE SET status = 'building', version = $2, src_lang = $3, tgt_lang = $4, error = NULL, updated_at = now()`,
      [agentId, version, langs.srcLang, langs.tgtLang],
    );
  }

  async languagePair(em: EntityManager, agentId: string): Promise<{ source: string; target: string }> {
    const rows: { src_lang: string; tgt_lang: string }[] = await em.query(`SELECT src_lang, tgt_lang FROM retrieval_agent_state WHERE agent_id = $1`, [
      agentId,
    ]);
    return rows[0] ? { source: rows[0].src_lang, target: rows[0].tgt_lang } : { source: 'und', target: 'und' };
  }

  /**
   * Marks `version` ready — only while it is still the agent's current version (a newer upload that
   * started meanwhile wins). Returns false when superseded or deleted.
   */
  async markReady(
    em: EntityManager,
    s: { agentId: string; version: string; artifactKey: string; learnedSummary: string; pairCount: number },
  ): Promise<boolean> {
    const rows = await em.query(
      `UPDATE retrieval_agent_state SET status = 'ready', ready_version = $2, artifact_key = $3, learned_summary = $4,
         pair_count = $5, error = NULL, updated_at = now()
       WHERE agent_id = $1 AND version = $2 RETURNING agent_id`,
      [s.agentId, s.version, s.artifactKey, s.learnedSummary, s.pairCount],
    );
    const updated = Array.isArray(rows[0]) ? rows[0] : rows;
    return updated.length > 0;
  }

  async markFailed(em: EntityManager, agentId: string, version: string, error: string): Promise<void> {
    await em.query(
      `INSERT INTO retrieval_agent_state (agent_id, status, version, error) VALUES ($1, 'failed', $2, $3)
       ON CONFLICT (agent_id) DO UPDATE SET status = 'failed', version = $2, error = $3, updated_at = now()`,
      [agentId, version, error],
    );
  }

  async delete(em: EntityManager, agentId: string): Promise<void> {
    await em.query(`DELETE FROM retrieval_agent_state WHERE agent_id = $1`, [agentId]);
  }
}
