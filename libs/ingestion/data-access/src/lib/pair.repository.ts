import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

export const pairHash = (source: string, target: string): string => createHash('sha256').update(source).update('\u0000').update(target).digest('base64url');

const BATCH = 5000;

export interface StoredPair {
  /** The pair's hash (stable across tasks: the same pair is stored once per agent). */
  id: string;
  source: string;
  target: string;
  taskId: string;
}

/** The agent's normalized sentence pairs. Every method runs on the caller's EntityManager (its transaction). */
export interface PairRepositoryPort {
  /**
   * Inserts pairs with an agent-wide de-duplication (ON CONFLICT DO NOTHING): repeating the same call
   * (a resumed task) changes nothing. `ordBase` + position gives a stable global order. Returns the
   * number of new pairs.
   */
  insertMany(
    em: EntityManager,
    agentId: string,
    taskId: string,
    fileIdx: number,
    ordBase: number,
    pairs: Array<{ source: string; target: string }>,
  ): Promise<number>;
  /** The first free position of the agent's global pair order. */
  nextOrd(em: EntityManager, agentId: string): Promise<number>;
  count(em: EntityManager, agentId: string): Promise<number>;
  /** Streams the agent's pairs in order (only those of `taskId` when given), `pageSize` at a time (keyset pagination). */
  iterate(em: EntityManager, agentId: string, opts?: { taskId?: string; pageSize?: number }): AsyncGenerator<StoredPair>;
  deleteForAgent(em: EntityManager, agentId: string): Promise<void>;
}
export const PAIR_REPOSITORY = Symbol('PAIR_REPOSITORY');

@Injectable()
export class PostgresPairRepository implements PairRepositoryPort {
  async insertMany(
    em: EntityManager,
    agentId: string,
    taskId: string,
    fileIdx: number,
    ordBase: number,
    pairs: Array<{ source: string; target: string }>,
  ): Promise<number> {
    let added = 0;
    for (let i = 0; i < pairs.length; i += BATCH) {
      const chunk = pairs.slice(i, i + BATCH);
      const rows: unknown[] = await em.query(
        `INSERT INTO ingestion_pair (agent_id, pair_hash, ord, source, target, task_id, file_idx)
         SELECT $1, h, o, s, t, $2, $3 FROM unnest($4::text[], $5::bigint[], $6::text[], $7::text[]) AS u(h, o, s, t)
         ON CONFLICT (agent_id, pair_hash) DO NOTHING RETURNING 1`,
        [
          agentId,
          taskId,
          fileIdx,
          chunk.map((p) => pairHash(p.source, p.target)),
          chunk.map((_, k) => ordBase + i + k),
          chunk.map((p) => p.source),
          chunk.map((p) => p.target),
        ],
      );
      added += rows.length;
    }
    return added;
  }

  async nextOrd(em: EntityManager, agentId: string): Promise<number> {
    const [r] = await em.query(`SELECT COALESCE(max(ord), 0) + 1 AS next FROM ingestion_pair WHERE agent_id = $1`, [agentId]);
    return Number(r.next);
  }

  async count(em: EntityManager, agentId: string): Promise<number> {
    const [r] = await em.query(`SELECT count(*)::int AS n FROM ingestion_pair WHERE agent_id = $1`, [agentId]);
    return r.n;
  }

  async *iterate(em: EntityManager, agentId: string, opts: { taskId?: string; pageSize?: number } = {}): AsyncGenerator<StoredPair> {
    let after = -1;
    const size = opts.pageSize ?? 10_000;
    for (;;) {
      const rows: Array<{ pair_hash: string; ord: string; source: string; target: string; task_id: string }> = await em.query(
        `SELECT pair_hash, ord, source, target, task_id FROM ingestion_pair WHERE agent_id = $1 AND ord > $2 ${opts.taskId ? 'AND task_id = $4' : ''}
         ORDER BY ord LIMIT $3`,
        opts.taskId ? [agentId, after, size, opts.taskId] : [agentId, after, size],
      );
      for (const r of rows) yield { id: r.pair_hash, source: r.source, target: r.target, taskId: r.task_id };
      if (rows.length < size) return;
      after = Number(rows[rows.length - 1].ord);
    }
  }

  async deleteForAgent(em: EntityManager, agentId: string): Promise<void> {
    await em.query(`DELETE FROM ingestion_pair WHERE agent_id = $1`, [agentId]);
  }
}
