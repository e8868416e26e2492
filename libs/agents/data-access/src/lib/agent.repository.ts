import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowsOf } from '@gaia/shared/messaging';
import type { AgentEntity, AgentEngine, ProcessingStatus } from './agent.entity';

/** Persistence of agents. Every method runs on the caller's EntityManager (its transaction). */
export interface AgentRepositoryPort {
  /** Live or tombstoned; `lock` takes a row lock (FOR UPDATE) until the transaction ends. */
  findById(em: EntityManager, id: string, opts?: { lock?: boolean }): Promise<AgentEntity | null>;
  insert(em: EntityManager, agent: AgentEntity): Promise<void>;
  /** Writes every mutable field of `agent` (the caller bumped version/updatedAt). */
  save(em: EntityManager, agent: AgentEntity): Promise<void>;
  /** Public live agents, newest first (then id); after `afterId` when given (keyset page). */
  listPublic(em: EntityManager, limit: number, afterId?: string | null): Promise<AgentEntity[]>;
  /**
   * Live agents owned by `ownerId` or shared with `email` (lower-cased; '' = none), newest first (then id);
   * at most `limit` (null = all) after `afterId` when given (keyset page).
   */
  listMine(em: EntityManager, ownerId: string, email: string, limit: number | null, afterId: string | null): Promise<AgentEntity[]>;
  /** Adds `email` to every live agent of the owner that lacks it; answers the changed agents. */
  addSharedEmail(em: EntityManager, ownerId: string, email: string, now: Date): Promise<AgentEntity[]>;
  /** Removes `email` from every live agent of the owner that has it; answers the changed agents. */
  removeSharedEmail(em: EntityManager, ownerId: string, email: string, now: Date): Promise<AgentEntity[]>;
  /** Serialises changes of one owner's agents and team (transaction-scoped advisory lock). */
  lockOwner(em: EntityManager, ownerId: string): Promise<void>;
}
export const AGENT_REPOSITORY = Symbol('AGENT_REPOSITORY');

interface AgentRow {
  id: string;
  owner_id: string;
  owner_email: string;
  src_lang: string;
  tgt_lang: string;
  custom_prompt: string;
  core_memory: string;
  learned_memory: string;
  public: boolean;
  shared_with_emails: string[];
  document_source: string | null;
  processing_task_id: string | null;
  processing_status: ProcessingStatus | null;
  processing_error: string | null;
  document_count: number;
  text_blocks_extracted: number;
  pair_count: number;
  engine: AgentEngine;
  artifact_version: string | null;
  artifact_key: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  feedback_version?: string | number;
}

const toEntity = (r: AgentRow): AgentEntity => ({
  id: r.id,
  ownerId: r.owner_id,
  ownerEmail: r.owner_email,
  srcLang: r.src_lang,
  tgtLang: r.tgt_lang,
  customPrompt: r.custom_prompt,
  coreMemory: r.core_memory,
  learnedMemory: r.learned_memory,
  public: r.public,
  sharedWithEmails: r.shared_with_emails ?? [],
  documentSource: r.document_source,
  processingTaskId: r.processing_task_id,
  processingStatus: r.processing_status,
  processingError: r.processing_error,
  documentCount: r.document_count,
  textBlocksExtracted: r.text_blocks_extracted,
  pairCount: r.pair_count,
  engine: r.engine,
  artifactVersion: r.artifact_version,
  artifactKey: r.artifact_key,
  version: r.version,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  deletedAt: r.deleted_at ? new Date(r.deleted_at) : null,
  feedbackVersion: Number(r.feedback_version ?? 0),
});

const COLUMNS = [
  'id',
  'owner_id',
  'owner_email',
  'src_lang',
  'tgt_lang',
  'custom_prompt',
  'core_memory',
  'learned_memory',
  'public',
  'shared_with_emails',
  'document_source',
  'processing_task_id',
  'processing_status',
  'processing_error',
  'document_count',
  'text_blocks_extracted',
  'pair_count',
  'engine',
  'artifact_version',
  'artifact_key',
  'version',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

const values = (a: AgentEntity): unknown[] => [
  a.id,
  a.ownerId,
  a.ownerEmail,
  a.srcLang,
  a.tgtLang,
  a.customPrompt,
  a.coreMemory,
  a.learnedMemory,
  a.public,
  a.sharedWithEmails,
  a.documentSource,
  a.processingTaskId,
  a.processingStatus,
  a.processingError,
  a.documentCount,
  a.textBlocksExtracted,
  a.pairCount,
  a.engine,
  a.artifactVersion,
  a.artifactKey,
  a.version,
  a.createdAt,
  a.updatedAt,
  a.deletedAt,
];

@Injectable()
export class PostgresAgentRepository implements AgentRepositoryPort {
  async findById(em: EntityManager, id: string, opts: { lock?: boolean } = {}): Promise<AgentEntity | null> {
    const rows: AgentRow[] = await em.query(`SELECT * FROM agent WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async insert(em: EntityManager, a: AgentEntity): Promise<void> {
    await em.query(`INSERT INTO agent (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`, values(a));
  }

  async save(em: EntityManager, a: AgentEntity): Promise<void> {
    const sets = COLUMNS.slice(1)
      .map((c, i) => `${c} = $${i + 2}`)
      .join(', ');
    await em.query(`UPDATE agent SET ${sets} WHERE id = $1`, values(a));
  }

  async listPublic(em: EntityManager, limit: number, afterId: string | null = null): Promise<AgentEntity[]> {
    const rows: AgentRow[] = await em.query(
      `SELECT * FROM agent WHERE public AND deleted_at IS NULL
         AND ($2::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM agent WHERE id = $2))
       ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit, afterId],
    );
    return rows.map(toEntity);
  }

  async listMine(em: EntityManager, ownerId: string, email: string, limit: number | null, afterId: string | null): Promise<AgentEntity[]> {
    const rows: AgentRow[] = await em.query(
      `SELECT * FROM agent WHERE deleted_at IS NULL
         AND (owner_id = $1 OR ($2 <> '' AND shared_with_emails @> ARRAY[$2]::text[]))
         AND ($3::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM agent WHERE id = $3))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [ownerId, email, afterId, limit],
    );
    return rows.map(toEntity);
  }

  async addSharedEmail(em: EntityManager, ownerId: string, email: string, now: Date): Promise<AgentEntity[]> {
    const rows = rowsOf<AgentRow>(
      await em.query(
        `UPDATE agent SET shared_with_emails = array_append(shared_with_emails, $2), version = version + 1, updated_at = $3
       WHERE owner_id = $1 AND deleted_at IS NULL AND NOT (shared_with_emails @> ARRAY[$2]::text[]) RETURNING *`,
        [ownerId, email, now],
      ),
    );
    return rows.map(toEntity);
  }

  async removeSharedEmail(em: EntityManager, ownerId: string, email: string, now: Date): Promise<AgentEntity[]> {
    const rows = rowsOf<AgentRow>(
      await em.query(
        `UPDATE agent SET shared_with_emails = array_remove(shared_with_emails, $2), version = version + 1, updated_at = $3
       WHERE owner_id = $1 AND deleted_at IS NULL AND shared_with_emails @> ARRAY[$2]::text[] RETURNING *`,
        [ownerId, email, now],
      ),
    );
    return rows.map(toEntity);
  }

  async lockOwner(em: EntityManager, ownerId: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtextextended('agents-owner:' || $1, 0))`, [ownerId]);
  }
}
