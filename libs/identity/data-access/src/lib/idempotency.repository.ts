import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import type { IdempotencyRecord } from './identity.entities';

export type IdempotencyClaim = { claimed: true } | { claimed: false; record: IdempotencyRecord };

/** Idempotency records of write requests, keyed by (scope, route, client key). */
export interface IdempotencyRepositoryPort {
  /** Claims (scope, route, key) for a request at `now`; returns the existing record when another request holds it. */
  claim(scope: string, route: string, key: string, requestHash: string, now: Date): Promise<IdempotencyClaim>;
  complete(scope: string, route: string, key: string, status: number, body: unknown): Promise<void>;
  /** Forgets records older than `before` (a replay window of a day is plenty for client retries). */
  purgeOlderThan(before: Date): Promise<void>;
  /** Drops a pending claim (the request failed, so a retry may run it). */
  release(scope: string, route: string, key: string): Promise<void>;
}
export const IDEMPOTENCY_REPOSITORY = Symbol('IDEMPOTENCY_REPOSITORY');

@Injectable()
export class PostgresIdempotencyRepository implements IdempotencyRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async claim(scope: string, route: string, key: string, requestHash: string, now: Date): Promise<IdempotencyClaim> {
    const ins = await this.ds.query(
      `INSERT INTO identity_idempotency (scope, route, key, request_hash, state, created_at) VALUES ($1, $2, $3, $4, 'pending', $5) ON CONFLICT DO NOTHING RETURNING key`,
      [scope, route, key, requestHash, now],
    );
    if (ins.length) return { claimed: true };
    const rows = await this.ds.query(`SELECT request_hash, state, status, body FROM identity_idempotency WHERE scope = $1 AND route = $2 AND key = $3`, [
      scope,
      route,
      key,
    ]);
    if (!rows.length) return this.claim(scope, route, key, requestHash, now); // released meanwhile
    const r = rows[0];
    return { claimed: false, record: { requestHash: r.request_hash, state: r.state, status: r.status === null ? null : Number(r.status), body: r.body } };
  }

  async complete(scope: string, route: string, key: string, status: number, body: unknown): Promise<void> {
    await this.ds.query(`UPDATE identity_idempotency SET state = 'done', status = $4, body = $5::jsonb WHERE scope = $1 AND route = $2 AND key = $3`, [
      scope,
      route,
      key,
      status,
      JSON.stringify(body ?? null),
    ]);
  }

  async purgeOlderThan(before: Date): Promise<void> {
    await this.ds.query(`DELETE FROM identity_idempotency WHERE created_at < $1`, [before]);
  }

  async release(scope: string, route: string, key: string): Promise<void> {
    await this.ds.query(`DELETE FROM identity_idempotency WHERE scope = $1 AND route = $2 AND key = $3 AND state = 'pending'`, [scope, route, key]);
  }
}
