import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowsOf } from '@gaia/shared/messaging';

/** A correction of an agent's answer ("Suggest a better translation"). */
export interface CorrectionEntity {
  id: string;
  agentId: string;
  source: string;
  translation: string;
  corrected: string;
  authorUid: string;
  authorEmail: string;
  createdAt: Date;
}

/** A glossary term: `term` (source language) must be translated as `translation`. */
export interface GlossaryTermEntity {
  id: string;
  agentId: string;
  term: string;
  translation: string;
  note: string;
  caseSensitive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Persistence of corrections and glossary terms. Every query names its agent (the tenant): a row of another
 * agent is never read, changed or removed through another agent's id. Runs on the caller's EntityManager.
 */
export interface FeedbackRepositoryPort {
  addCorrection(em: EntityManager, c: CorrectionEntity): Promise<void>;
  countCorrections(em: EntityManager, agentId: string): Promise<number>;
  /** Newest first (then id), `limit` after `afterId` when given (keyset page). */
  listCorrections(em: EntityManager, agentId: string, limit: number | null, afterId: string | null): Promise<CorrectionEntity[]>;
  /** false when the agent has no such correction. */
  removeCorrection(em: EntityManager, agentId: string, id: string): Promise<boolean>;
  /** By term key (lower-cased term), then id; `limit` after `afterId` when given. */
  listTerms(em: EntityManager, agentId: string, limit: number | null, afterId: string | null): Promise<GlossaryTermEntity[]>;
  countTerms(em: EntityManager, agentId: string): Promise<number>;
  findTermByKey(em: EntityManager, agentId: string, term: string): Promise<GlossaryTermEntity | null>;
  findTerm(em: EntityManager, agentId: string, id: string): Promise<GlossaryTermEntity | null>;
  insertTerm(em: EntityManager, t: GlossaryTermEntity): Promise<void>;
  updateTerm(em: EntityManager, t: GlossaryTermEntity): Promise<void>;
  removeTerm(em: EntityManager, agentId: string, id: string): Promise<boolean>;
  /** Bumps and answers the agent's feedback version (call in the transaction that changed its feedback). */
  bumpVersion(em: EntityManager, agentId: string): Promise<number>;
  version(em: EntityManager, agentId: string): Promise<number>;
  /** Removes every correction and glossary term of the agent (agent deleted). */
  removeAllForAgent(em: EntityManager, agentId: string): Promise<void>;
}
export const FEEDBACK_REPOSITORY = Symbol('FEEDBACK_REPOSITORY');

/** Key of a term: one entry per term whatever its letter case. */
export const termKey = (term: string): string => term.normalize('NFC').trim().toLowerCase();

interface CorrectionRow {
  id: string;
  agent_id: string;
  source: string;
  translation: string;
  corrected: string;
  author_uid: string;
  author_email: string;
  created_at: Date;
}
interface TermRow {
  id: string;
  agent_id: string;
  term: string;
  translation: string;
  note: string;
  case_sensitive: boolean;
  created_at: Date;
  updated_at: Date;
}

const toCorrection = (r: CorrectionRow): CorrectionEntity => ({
  id: r.id,
  agentId: r.agent_id,
  source: r.source,
  translation: r.translation,
  corrected: r.corrected,
  authorUid: r.author_uid,
  authorEmail: r.author_email,
  createdAt: new Date(r.created_at),
});
const toTerm = (r: TermRow): GlossaryTermEntity => ({
  id: r.id,
  agentId: r.agent_id,
  term: r.term,
  translation: r.translation,
  note: r.note,
  caseSensitive: r.case_sensitive,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

@Injectable()
export class PostgresFeedbackRepository implements FeedbackRepositoryPort {
  async addCorrection(em: EntityManager, c: CorrectionEntity): Promise<void> {
    await em.query(
      `INSERT INTO agent_correction (id, agent_id, source, translation, corrected, author_uid, author_email, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [c.id, c.agentId, c.source, c.translation, c.corrected, c.authorUid, c.authorEmail, c.createdAt],
    );
  }

  async countCorrections(em: EntityManager, agentId: string): Promise<number> {
    const rows: { n: string }[] = await em.query(`SELECT count(*) AS n FROM agent_correction WHERE agent_id = $1`, [agentId]);
    return Number(rows[0]?.n ?? 0);
  }

  async listCorrections(em: EntityManager, agentId: string, limit: number | null, afterId: string | null): Promise<CorrectionEntity[]> {
    const rows: CorrectionRow[] = await em.query(
      `SELECT * FROM agent_correction WHERE agent_id = $1
         AND ($2::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM agent_correction WHERE id = $2 AND agent_id = $1))
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [agentId, afterId, limit],
    );
    return rows.map(toCorrection);
  }

  async removeCorrection(em: EntityManager, agentId: string, id: string): Promise<boolean> {
    return rowsOf(await em.query(`DELETE FROM agent_correction WHERE agent_id = $1 AND id = $2 RETURNING id`, [agentId, id])).length > 0;
  }

  async listTerms(em: EntityManager, agentId: string, limit: number | null, afterId: string | null): Promise<GlossaryTermEntity[]> {
    const rows: TermRow[] = await em.query(
      `SELECT * FROM agent_glossary_term WHERE agent_id = $1
         AND ($2::text IS NULL OR (term_key, id) > (SELECT term_key, id FROM agent_glossary_term WHERE id = $2 AND agent_id = $1))
       ORDER BY term_key, id LIMIT $3`,
      [agentId, afterId, limit],
    );
    return rows.map(toTerm);
  }

  async countTerms(em: EntityManager, agentId: string): Promise<number> {
    const rows: { n: string }[] = await em.query(`SELECT count(*) AS n FROM agent_glossary_term WHERE agent_id = $1`, [agentId]);
    return Number(rows[0]?.n ?? 0);
  }

  async findTermByKey(em: EntityManager, agentId: string, term: string): Promise<GlossaryTermEntity | null> {
    const rows: TermRow[] = await em.query(`SELECT * FROM agent_glossary_term WHERE agent_id = $1 AND term_key = $2`, [agentId, termKey(term)]);
    return rows[0] ? toTerm(rows[0]) : null;
  }

  async findTerm(em: EntityManager, agentId: string, id: string): Promise<GlossaryTermEntity | null> {
    const rows: TermRow[] = await em.query(`SELECT * FROM agent_glossary_term WHERE agent_id = $1 AND id = $2`, [agentId, id]);
    return rows[0] ? toTerm(rows[0]) : null;
  }

  async insertTerm(em: EntityManager, t: GlossaryTermEntity): Promise<void> {
    await em.query(
      `INSERT INTO agent_glossary_term (id, agent_id, term, term_key, translation, note, case_sensitive, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [t.id, t.agentId, t.term, termKey(t.term), t.translation, t.note, t.caseSensitive, t.createdAt, t.updatedAt],
    );
  }

  async updateTerm(em: EntityManager, t: GlossaryTermEntity): Promise<void> {
    await em.query(
      `UPDATE agent_glossary_term SET term = $3, term_key = $4, translation = $5, note = $6, case_sensitive = $7, updated_at = $8 WHERE agent_id = $1 AND id = $2`,
      [t.agentId, t.id, t.term, termKey(t.term), t.translation, t.note, t.caseSensitive, t.updatedAt],
    );
  }

  async removeTerm(em: EntityManager, agentId: string, id: string): Promise<boolean> {
    return rowsOf(await em.query(`DELETE FROM agent_glossary_term WHERE agent_id = $1 AND id = $2 RETURNING id`, [agentId, id])).length > 0;
  }

  async bumpVersion(em: EntityManager, agentId: string): Promise<number> {
    const rows = rowsOf<{ feedback_version: string }>(
      await em.query(`UPDATE agent SET feedback_version = feedback_version + 1 WHERE id = $1 RETURNING feedback_version`, [agentId]),
    );
    return Number(rows[0]?.feedback_version ?? 0);
  }

  async removeAllForAgent(em: EntityManager, agentId: string): Promise<void> {
    await em.query(`DELETE FROM agent_correction WHERE agent_id = $1`, [agentId]);
    await em.query(`DELETE FROM agent_glossary_term WHERE agent_id = $1`, [agentId]);
  }

  async version(em: EntityManager, agentId: string): Promise<number> {
    const rows: { feedback_version: string }[] = await em.query(`SELECT feedback_version FROM agent WHERE id = $1`, [agentId]);
    return Number(rows[0]?.feedback_version ?? 0);
  }
}
