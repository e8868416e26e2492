import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Escapes LIKE wildcards so an id or email is matched literally. */
const likeText = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const rowsOf = <T>(res: unknown): T[] => (Array.isArray((res as unknown[])[0]) ? ((res as unknown[][])[0] as T[]) : (res as T[]));

export interface ErasureTarget {
  id: string;
  userId: string;
  email: string;
}

/**
 * Account deletion on the identity side (on the caller's transaction): the user row and everything that hangs on
 * it (sessions, API keys, email tokens by cascade), idempotency records and rate counters naming the account,
 * and the messaging rows that still carry its id or email once every consumer has applied the deletion.
 */
export interface AccountErasureRepositoryPort {
  /** Deletes the account's identity rows; answers the ids of its API keys (null when there is no such user). */
  eraseUser(em: EntityManager, userId: string, email: string): Promise<{ keyIds: string[] } | null>;
  recordErasure(em: EntityManager, t: ErasureTarget, at: Date): Promise<void>;
  findErasure(em: EntityManager, id: string): Promise<ErasureTarget | null>;
  /** Events naming the account that some consumer has not applied yet (the scrub waits for them). */
  undeliveredMentions(em: EntityManager, t: ErasureTarget): Promise<number>;
  /**
   * Removes delivered events and finished jobs that name the account or one of its deleted agents (found in the
   * agents.agent-deleted.v1 events of the account), then the erasure itself.
   */
  scrubMessages(em: EntityManager, t: ErasureTarget): Promise<void>;
}
export const ACCOUNT_ERASURE_REPOSITORY = Symbol('ACCOUNT_ERASURE_REPOSITORY');

@Injectable()
export class PostgresAccountErasureRepository implements AccountErasureRepositoryPort {
  async eraseUser(em: EntityManager, userId: string, email: string): Promise<{ keyIds: string[] } | null> {
    const keys: { id: string }[] = await em.query(`SELECT id FROM identity_api_key WHERE user_id = $1`, [userId]);
    const deleted = rowsOf<{ id: string }>(await em.query(`DELETE FROM identity_user WHERE id = $1 RETURNING id`, [userId]));
    if (!deleted.length) return null;
    const patterns = [likeText(userId), likeText(email.toLowerCase())];
    await em.query(`DELETE FROM identity_idempotency WHERE scope ILIKE ANY($1) OR body::text ILIKE ANY($1)`, [patterns]);
    await em.query(`DELETE FROM identity_rate_counter WHERE bucket ILIKE ANY($1)`, [patterns]);
    return { keyIds: keys.map((k) => k.id) };
  }

  async recordErasure(em: EntityManager, t: ErasureTarget, at: Date): Promise<void> {
    await em.query(`INSERT INTO identity_erasure (id, user_id, email, created_at) VALUES ($1, $2, $3, $4)`, [t.id, t.userId, t.email.toLowerCase(), at]);
  }

  async findErasure(em: EntityManager, id: string): Promise<ErasureTarget | null> {
    const rows: { id: string; user_id: string; email: string }[] = await em.query(`SELECT id, user_id, email FROM identity_erasure WHERE id = $1`, [id]);
    return rows[0] ? { id: rows[0].id, userId: rows[0].user_id, email: rows[0].email } : null;
  }

  async undeliveredMentions(em: EntityManager, t: ErasureTarget): Promise<number> {
    const rows: { n: number }[] = await em.query(
      `SELECT count(*)::int AS n FROM outbox_delivery d JOIN outbox_event e ON e.id = d.event_id
        WHERE d.status <> 'delivered' AND e.payload::text ILIKE ANY($1)`,
      [[likeText(t.userId), likeText(t.email)]],
    );
    return rows[0]?.n ?? 0;
  }

  async scrubMessages(em: EntityManager, t: ErasureTarget): Promise<void> {
    const agents: { id: string }[] = await em.query(
      `SELECT DISTINCT payload->>'agentId' AS id FROM outbox_event WHERE topic = 'agents.agent-deleted.v1' AND payload->>'ownerId' = $1`,
      [t.userId],
    );
    const patterns = [likeText(t.userId), likeText(t.email), ...agents.map((a) => likeText(a.id))];
    await em.query(
      `DELETE FROM outbox_event e WHERE e.payload::text ILIKE ANY($1)
         AND NOT EXISTS (SELECT 1 FROM outbox_delivery d WHERE d.event_id = e.id AND d.status <> 'delivered')`,
      [patterns],
    );
    await em.query(`DELETE FROM job WHERE status IN ('done', 'failed') AND payload::text ILIKE ANY($1)`, [patterns]);
    await em.query(`DELETE FROM identity_erasure WHERE id = $1`, [t.id]);
  }
}
