import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import type { ApiKeyKind, ApiKeyRecord } from './identity.entities';

const COLS = `id, user_id, kind, name, prefix, secret_hash, rate_limit, created_at, revoked_at`;

function toKey(r: Record<string, unknown>): ApiKeyRecord {
  return {
    id: r['id'] as string,
    userId: (r['user_id'] as string | null) ?? null,
    kind: r['kind'] as ApiKeyKind,
    name: r['name'] as string,
    prefix: r['prefix'] as string,
    secretHash: r['secret_hash'] as string,
    rateLimit: Number(r['rate_limit']),
    createdAt: new Date(r['created_at'] as string),
    revokedAt: r['revoked_at'] ? new Date(r['revoked_at'] as string) : null,
  };
}

/** A key to store: the record's own fields, created (not revoked) at `now`. */
export type NewApiKey = Omit<ApiKeyRecord, 'createdAt' | 'revokedAt'> & { now: Date };

/** API keys (user keys and the public translator's key), stored as a prefix and a secret hash. */
export interface ApiKeyRepositoryPort {
  insert(k: NewApiKey): Promise<ApiKeyRecord>;
  findByPrefix(prefix: string): Promise<ApiKeyRecord | null>;
  findById(id: string): Promise<ApiKeyRecord | null>;
  /** The user's keys, newest first (then id); a keyset page when `page` is given (`limit` keys after `afterId`). */
  listByUser(userId: string, page?: { limit: number; afterId: string | null }): Promise<ApiKeyRecord[]>;
  /** Operator: sets a key's daily request limit; null when no key has this prefix. */
  setRateLimit(prefix: string, rateLimit: number): Promise<ApiKeyRecord | null>;
  /** Revokes a key of this user; false when the user has no such key. */
  revoke(userId: string, id: string, at: Date): Promise<boolean>;
}
export const API_KEY_REPOSITORY = Symbol('API_KEY_REPOSITORY');

@Injectable()
export class PostgresApiKeyRepository implements ApiKeyRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async insert(k: NewApiKey): Promise<ApiKeyRecord> {
    const rows = await this.ds.query(
      `INSERT INTO identity_api_key (id, user_id, kind, name, prefix, secret_hash, rate_limit, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLS}`,
      [k.id, k.userId, k.kind, k.name, k.prefix, k.secretHash, k.rateLimit, k.now],
    );
    return toKey(rows[0]);
  }

  async findByPrefix(prefix: string): Promise<ApiKeyRecord | null> {
    const rows = await this.ds.query(`SELECT ${COLS} FROM identity_api_key WHERE prefix = $1`, [prefix]);
    return rows.length ? toKey(rows[0]) : null;
  }

  async findById(id: string): Promise<ApiKeyRecord | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const rows = await this.ds.query(`SELECT ${COLS} FROM identity_api_key WHERE id = $1`, [id]);
    return rows.length ? toKey(rows[0]) : null;
  }

  async listByUser(userId: string, page?: { limit: number; afterId: string | null }): Promise<ApiKeyRecord[]> {
    const rows = await this.ds.query(
      `SELECT ${COLS} FROM identity_api_key WHERE user_id = $1 AND kind = 'user'
         AND ($2::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM identity_api_key WHERE id::text = $2 AND user_id = $1))
       ORDER BY created_at DESC, id DESC LIMIT $3`,
      [userId, page?.afterId ?? null, page?.limit ?? null],
    );
    return rows.map(toKey);
  }

  async setRateLimit(prefix: string, rateLimit: number): Promise<ApiKeyRecord | null> {
    const rows = await this.ds.query(`UPDATE identity_api_key SET rate_limit = $2 WHERE prefix = $1 RETURNING ${COLS}`, [prefix, rateLimit]);
    const r = Array.isArray(rows[0]) ? rows[0] : rows;
    return r.length ? toKey(r[0]) : null;
  }

  async revoke(userId: string, id: string, at: Date): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    const rows = await this.ds.query(
      `UPDATE identity_api_key SET revoked_at = COALESCE(revoked_at, $3) WHERE id = $1 AND user_id = $2 AND kind = 'user' RETURNING id`,
      [id, userId, at],
    );
    const r = Array.isArray(rows[0]) ? rows[0] : rows;
    return r.length > 0;
  }
}
