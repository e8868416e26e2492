import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { FileStatus, UploadedFileEntity } from './ingestion.entities';

function toEntity(r: Record<string, unknown>): UploadedFileEntity {
  return {
    id: r['id'] as string,
    taskId: r['task_id'] as string,
    agentId: r['agent_id'] as string,
    idx: Number(r['idx']),
    filename: r['filename'] as string,
    storageKey: r['storage_key'] as string,
    size: Number(r['size']),
    status: r['status'] as FileStatus,
    companionIdx: r['companion_idx'] === null || r['companion_idx'] === undefined ? null : Number(r['companion_idx']),
    format: (r['format'] as string) ?? null,
    error: (r['error'] as string) ?? null,
    pairsAdded: Number(r['pairs_added']),
    textBlocks: Number(r['text_blocks']),
    pages: Number(r['pages']),
  };
}

export type NewUploadedFile = Pick<UploadedFileEntity, 'id' | 'taskId' | 'agentId' | 'idx' | 'filename' | 'storageKey' | 'size' | 'companionIdx' | 'status'>;

export interface FileOutcome {
  status: 'done' | 'failed';
  format?: string | null;
  error?: string | null;
  pairsAdded?: number;
  textBlocks?: number;
  pages?: number;
  stats?: unknown;
  warnings?: string[];
}

/** The uploaded files of processing tasks. Every method runs on the caller's EntityManager (its transaction). */
export interface FileRepositoryPort {
  insertMany(em: EntityManager, files: NewUploadedFile[]): Promise<void>;
  /** The task's files in upload order. */
  listForTask(em: EntityManager, taskId: string): Promise<UploadedFileEntity[]>;
  /** Every file of the agent, task by task in creation order. */
  listForAgent(em: EntityManager, agentId: string): Promise<UploadedFileEntity[]>;
  finish(em: EntityManager, id: string, r: FileOutcome): Promise<void>;
  /** Marks the companion file (`idx`, the other half of a parallel pair of files) done or failed with its partner. */
  finishCompanion(em: EntityManager, taskId: string, idx: number, status: FileOutcome['status'], error?: string | null): Promise<void>;
  /** Files read successfully and the text blocks they gave, over every task of the agent. */
  countDocuments(em: EntityManager, agentId: string): Promise<{ documents: number; textBlocks: number }>;
}
export const FILE_REPOSITORY = Symbol('FILE_REPOSITORY');

@Injectable()
export class PostgresFileRepository implements FileRepositoryPort {
  async insertMany(em: EntityManager, files: NewUploadedFile[]): Promise<void> {
    for (const f of files) {
      await em.query(
        `INSERT INTO ingestion_file (id, task_id, agent_id, idx, filename, storage_key, size, companion_idx, status) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
        [f.id, f.taskId, f.agentId, f.idx, f.filename, f.storageKey, f.size, f.companionIdx, f.status],
      );
    }
  }

  async listForTask(em: EntityManager, taskId: string): Promise<UploadedFileEntity[]> {
    return (await em.query(`SELECT * FROM ingestion_file WHERE task_id = $1 ORDER BY idx`, [taskId])).map(toEntity);
  }

  async listForAgent(em: EntityManager, agentId: string): Promise<UploadedFileEntity[]> {
    return (
      await em.query(`SELECT f.* FROM ingestion_file f JOIN ingestion_task t ON t.id = f.task_id WHERE f.agent_id = $1 ORDER BY t.created_at, f.idx`, [agentId])
    ).map(toEntity);
  }

  async finish(em: EntityManager, id: string, r: FileOutcome): Promise<void> {
    await em.query(
      `UPDATE ingestion_file SET status = $2, format = $3, error = $4, pairs_added = $5, text_blocks = $6, pages = $7, stats = $8, warnings = $9 WHERE id = $1`,
      [
        id,
        r.status,
        r.format ?? null,
        r.error ?? null,
        r.pairsAdded ?? 0,
        r.textBlocks ?? 0,
        r.pages ?? 0,
        JSON.stringify(r.stats ?? null),
        JSON.stringify(r.warnings ?? []),
      ],
    );
  }

  async finishCompanion(em: EntityManager, taskId: string, idx: number, status: FileOutcome['status'], error: string | null = null): Promise<void> {
    await em.query(`UPDATE ingestion_file SET status = $3, error = COALESCE($4, error) WHERE task_id = $1 AND idx = $2`, [taskId, idx, status, error]);
  }

  async countDocuments(em: EntityManager, agentId: string): Promise<{ documents: number; textBlocks: number }> {
    const [r] = await em.query(
      `SELECT count(*) FILTER (WHERE status = 'done')::int AS documents, COALESCE(sum(text_blocks) FILTER (WHERE status = 'done'), 0)::int AS blocks
       FROM ingestion_file WHERE agent_id = $1`,
      [agentId],
    );
    return { documents: r.documents, textBlocks: r.blocks };
  }
}
