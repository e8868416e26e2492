import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

/** Fixed-window counters in Postgres: every gateway replica increments the same row atomically. */
export interface RateCounterRepositoryPort {
  /** Adds one hit to (bucket, window) and answers the count after it. */
  increment(bucket: string, windowStart: Date, expiresAt: Date): Promise<number>;
  /** The count of (bucket, window) without adding a hit. */
  current(bucket: string, windowStart: Date): Promise<number>;
  purgeExpired(now: Date): Promise<void>;
}
export const RATE_COUNTER_REPOSITORY = Symbol('RATE_COUNTER_REPOSITORY');

@Injectable()
export class PostgresRateCounterRepository implements RateCounterRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async increment(bucket: string, windowStart: Date, expiresAt: Date): Promise<number> {
    const rows = await this.ds.query(
      `INSERT INTO identity_rate_counter (bucket, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = identity_rate_counter.count + 1 RETURNING count`,
      [bucket, windowStart, expiresAt],
    );
    return Number(rows[0].count);
  }

  async current(bucket: string, windowStart: Date): Promise<number> {
    const rows = await this.ds.query(`SELECT count FROM identity_rate_counter WHERE bucket = $1 AND window_start = $2`, [bucket, windowStart]);
    return rows.length ? Number(rows[0].count) : 0;
  }

  async purgeExpired(now: Date): Promise<void> {
    await this.ds.query(`DELETE FROM identity_rate_counter WHERE expires_at < $1`, [now]);
  }
}
