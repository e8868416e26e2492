import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import type { SessionRecord } from './identity.entities';

/** Sign-in sessions, found by the hash of their cookie token. */
export interface SessionRepositoryPort {
  insert(s: { id: string; tokenHash: string; userId: string; csrfToken: string; now: Date; expiresAt: Date }): Promise<void>;
  /** The live session of a token hash (expired sessions are not returned). */
  findLive(tokenHash: string, now: Date): Promise<SessionRecord | null>;
  deleteByTokenHash(tokenHash: string): Promise<void>;
  /** Answers how many expired sessions it deleted. */
  deleteExpired(now: Date): Promise<number>;
}
export const SESSION_REPOSITORY = Symbol('SESSION_REPOSITORY');

@Injectable()
export class PostgresSessionRepository implements SessionRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async insert(s: { id: string; tokenHash: string; userId: string; csrfToken: string; now: Date; expiresAt: Date }): Promise<void> {
    await this.ds.query(`INSERT INTO identity_session (id, token_hash, user_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      s.id,
      s.tokenHash,
      s.userId,
      s.csrfToken,
      s.now,
      s.expiresAt,
    ]);
  }

  async findLive(tokenHash: string, now: Date): Promise<SessionRecord | null> {
    const rows = await this.ds.query(`SELECT id, user_id, csrf_token, created_at, expires_at FROM identity_session WHERE token_hash = $1 AND expires_at > $2`, [
      tokenHash,
      now,
    ]);
    if (!rows.length) return null;
    const r = rows[0];
    return { id: r.id, userId: r.user_id, csrfToken: r.csrf_token, createdAt: new Date(r.created_at), expiresAt: new Date(r.expires_at) };
  }

  async deleteByTokenHash(tokenHash: string): Promise<void> {
    await this.ds.query(`DELETE FROM identity_session WHERE token_hash = $1`, [tokenHash]);
  }

  async deleteExpired(now: Date): Promise<number> {
    const r = await this.ds.query(`DELETE FROM identity_session WHERE expires_at <= $1`, [now]);
    return Array.isArray(r) ? Number(r[1] ?? 0) : 0;
  }
}
