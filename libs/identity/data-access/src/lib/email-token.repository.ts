import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

/** Single-use email verification tokens, stored as SHA-256 hashes only. */
export interface EmailTokenRepositoryPort {
  insert(t: { tokenHash: string; userId: string; email: string; now: Date; expiresAt: Date }): Promise<void>;
  /** Uses a live token up (deleted in the same statement, so it works once); null when unknown, used or expired. */
  consume(tokenHash: string, now: Date): Promise<{ userId: string; email: string } | null>;
  deleteForUser(userId: string): Promise<void>;
}
export const EMAIL_TOKEN_REPOSITORY = Symbol('EMAIL_TOKEN_REPOSITORY');

@Injectable()
export class PostgresEmailTokenRepository implements EmailTokenRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async insert(t: { tokenHash: string; userId: string; email: string; now: Date; expiresAt: Date }): Promise<void> {
    await this.ds.query(`INSERT INTO identity_email_token (token_hash, user_id, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
      t.tokenHash,
      t.userId,
      t.email,
      t.now,
      t.expiresAt,
    ]);
  }

  async consume(tokenHash: string, now: Date): Promise<{ userId: string; email: string } | null> {
    const rows = await this.ds.query(`DELETE FROM identity_email_token WHERE token_hash = $1 RETURNING user_id, email, expires_at`, [tokenHash]);
    const r = (Array.isArray(rows[0]) ? rows[0] : rows)[0] as { user_id: string; email: string; expires_at: Date } | undefined;
    return r && new Date(r.expires_at) > now ? { userId: r.user_id, email: r.email } : null;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.ds.query(`DELETE FROM identity_email_token WHERE user_id = $1`, [userId]);
  }
}
