import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

/** Subject prefix of the anonymous public translator's per-IP counters (`public-ip:<ip>`). */
export const PUBLIC_IP_SUBJECT_PREFIX = 'public-ip:';

/** Deletes counters whose window has passed. */
export interface CounterPurgeRepositoryPort {
  /**
   * Deletes the public translator's per-IP counters of minute windows before `minuteWindow` and of day windows
   * before `dayWindow` (window keys `m:YYYY-MM-DDTHH:MM` / `d:YYYY-MM-DD` sort by time); answers how many.
   */
  purgePublicIpCounters(minuteWindow: string, dayWindow: string): Promise<number>;
}
export const COUNTER_PURGE_REPOSITORY = Symbol('COUNTER_PURGE_REPOSITORY');

@Injectable()
export class PostgresCounterPurgeRepository implements CounterPurgeRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async purgePublicIpCounters(minuteWindow: string, dayWindow: string): Promise<number> {
    const rows: unknown[] = await this.ds.query(
      `DELETE FROM billing_counter
        WHERE subject LIKE $1 || '%'
          AND ((window_key LIKE 'm:%' AND window_key < $2) OR (window_key LIKE 'd:%' AND window_key < $3))
        RETURNING 1`,
      [PUBLIC_IP_SUBJECT_PREFIX, minuteWindow, dayWindow],
    );
    return (Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows).length;
  }
}
