import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ProcessingTaskEntity, TaskStatus } from './ingestion.entities';

const COLS = `id, agent_id, owner_id, mode, src_lang, tgt_lang, status, progress, message, estimated_processing_time,
  total_pages, total_files, successful_files, text_blocks_extracted, errors, pairs_version, pair_count, created_at`;

function toEntity(r: Record<string, unknown>): ProcessingTaskEntity {
  return {
    id: r['id'] as string,
    agentId: r['agent_id'] as string,
    ownerId: r['owner_id'] as string,
    mode: r['mode'] as 'create' | 'update',
    srcLang: r['src_lang'] as string,
    tgtLang: r['tgt_lang'] as string,
    status: r['status'] as TaskStatus,
    progress: Number(r['progress']),
    message: r['message'] as string,
    estimatedProcessingTime: Number(r['estimated_processing_time']),
    totalPages: Number(r['total_pages']),
    totalFiles: Number(r['total_files']),
    successfulFiles: Number(r['successful_files']),
    textBlocksExtracted: Number(r['text_blocks_extracted']),
    errors: (r['errors'] as Array<{ file: string; message: string }>) ?? [],
    pairsVersion: (r['pairs_version'] as string | null) ?? null,
    pairCount: Number(r['pair_count'] ?? 0),
    createdAt: new Date(r['created_at'] as string),
  };
}

export type NewProcessingTask = Omit<
  ProcessingTaskEntity,
  'createdAt' | 'status' | 'progress' | 'successfulFiles' | 'textBlocksExtracted' | 'errors' | 'totalPages' | 'pairsVersion' | 'pairCount'
> & {
  idempotencyKey?: string | null;
};
export type ProcessingTaskPatch = Partial<
  Pick<
    ProcessingTaskEntity,
    'status' | 'progress' | 'message' | 'totalPages' | 'successfulFiles' | 'textBlocksExtracted' | 'errors' | 'pairsVersion' | 'pairCount'
  >
>;

/** Processing tasks (one upload of files into an agent). Every method runs on the caller's EntityManager (its transaction). */
export interface TaskRepositoryPort {
  insert(em: EntityManager, t: NewProcessingTask): Promise<void>;
  /** `lock` takes a row lock (FOR UPDATE) until the transaction ends. */
  find(em: EntityManager, id: string, lock?: boolean): Promise<ProcessingTaskEntity | null>;
  findByIdempotencyKey(em: EntityManager, ownerId: string, key: string): Promise<ProcessingTaskEntity | null>;
  /** The oldest live (PROCESSING) task of the agent. */
  findActiveForAgent(em: EntityManager, agentId: string): Promise<ProcessingTaskEntity | null>;
  /** Serializes, until the transaction ends, the callers that start a new version of the agent's pairs. */
  lockAgent(em: EntityManager, agentId: string): Promise<void>;
  /** Writes the given fields; a final status also stamps finished_at. */
  update(em: EntityManager, id: string, patch: ProcessingTaskPatch): Promise<void>;
  /** The agent's tasks, oldest first. */
  listForAgent(em: EntityManager, agentId: string): Promise<ProcessingTaskEntity[]>;
  /** Answers how many tasks it deleted. */
  deleteForAgent(em: EntityManager, agentId: string): Promise<number>;
}
export const TASK_REPOSITORY = Symbol('TASK_REPOSITORY');

/** First key of the two-key transaction advisory lock per agent taken by lockAgent (ASCII "IT": ingestion task). */
const AGENT_TASK_LOCK_NAMESPACE = 0x4954;

@Injectable()
export class PostgresTaskRepository implements TaskRepositoryPort {
  async insert(em: EntityManager, t: NewProcessingTask): Promise<void> {
    await em.query(
      `INSERT INTO ingestion_task (id, agent_id, owner_id, mode, src_lang, tgt_lang, message, estimated_processing_time, total_files, idempotency_key)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
      [t.id, t.agentId, t.ownerId, t.mode, t.srcLang, t.tgtLang, t.message, t.estimatedProcessingTime, t.totalFiles, t.idempotencyKey ?? null],
    );
  }

  async find(em: EntityManager, id: string, lock = false): Promise<ProcessingTaskEntity | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const rows = await em.query(`SELECT ${COLS} FROM ingestion_task WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`, [id]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async findByIdempotencyKey(em: EntityManager, ownerId: string, key: string): Promise<ProcessingTaskEntity | null> {
    const rows = await em.query(`SELECT ${COLS} FROM ingestion_task WHERE owner_id = $1 AND idempotency_key = $2`, [ownerId, key]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async findActiveForAgent(em: EntityManager, agentId: string): Promise<ProcessingTaskEntity | null> {
    const rows = await em.query(`SELECT ${COLS} FROM ingestion_task WHERE agent_id = $1 AND status = 'PROCESSING' ORDER BY created_at LIMIT 1`, [agentId]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async lockAgent(em: EntityManager, agentId: string): Promise<void> {
    await em.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [AGENT_TASK_LOCK_NAMESPACE, agentId]);
  }

  async update(em: EntityManager, id: string, patch: ProcessingTaskPatch): Promise<void> {
    const map: Record<string, string> = {
      status: 'status',
      progress: 'progress',
      message: 'message',
      totalPages: 'total_pages',
      successfulFiles: 'successful_files',
      textBlocksExtracted: 'text_blocks_extracted',
      errors: 'errors',
      pairsVersion: 'pairs_version',
      pairCount: 'pair_count',
    };
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      values.push(k === 'errors' ? JSON.stringify(v) : v);
      sets.push(`${map[k]} = $${values.length}`);
    }
    if (patch.status && patch.status !== 'PROCESSING') sets.push('finished_at = now()');
    sets.push('updated_at = now()');
    await em.query(`UPDATE ingestion_task SET ${sets.join(', ')} WHERE id = $1`, values);
  }

  async listForAgent(em: EntityManager, agentId: string): Promise<ProcessingTaskEntity[]> {
    const rows = await em.query(`SELECT ${COLS} FROM ingestion_task WHERE agent_id = $1 ORDER BY created_at`, [agentId]);
    return rows.map(toEntity);
  }

  async deleteForAgent(em: EntityManager, agentId: string): Promise<number> {
    const rows = await em.query(`DELETE FROM ingestion_task WHERE agent_id = $1 RETURNING id`, [agentId]);
    return Array.isArray(rows[0]) ? rows[0].length : rows.length;
  }
}
