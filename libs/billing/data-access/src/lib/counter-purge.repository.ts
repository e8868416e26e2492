import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

/** Subject prefix of the anonymous public translator's per-IP counters (`public-ip:<ip>`). */
export const PUBLIC_IP_SUBJECT_PREFIX = 'public-ip:';

/**
 * Deletes the public per-IP counters of minute windows before $1 and of day windows before $2. Its `subject` predicate
 * is the one of the partial index billing_counter_public_ip (migration 1795800000007): keep them the same.
 */
export const PURGE_PUBLIC_IP_COUNTERS_SQL = `DELETE FROM billing_counter
  WHERE subject LIKE '${PUBLIC_IP_SUBJECT_PREFIX}%'
    AND ((window_key LIKE 'm:%' AND window_key < $1) OR (window_key LIKE 'd:%' AND window_key < $2))
  RETURNING 1`;
/**
 * Removes the public per-IP counters from the counters of the public authorizations created before $1. Its `channel`
 * and `jsonb_path_exists` predicates are the ones of the partial index billing_authorization_public_ip (migration
 * 1795800000007): keep them the same.
 */
export const FORGET_PUBLIC_IPS_SQL = `UPDATE billing_authorization
    SET counters = COALESCE((SELECT jsonb_agg(c) FROM jsonb_array_elements(counters) c WHERE c->>'subject' NOT LIKE '${PUBLIC_IP_SUBJECT_PREFIX}%'), '[]'::jsonb)
  WHERE channel = 'public'
    AND created_at < $1
    AND jsonb_path_exists(counters, '$[*] ? (@.subject starts with "${PUBLIC_IP_SUBJECT_PREFIX}")')
  RETURNING 1`;

/** Deletes counters whose window has passed, and the client IPs authorizations name through them. */
export interface CounterPurgeRepositoryPort {
  /**
   * Deletes the public translator's per-IP counters of minute windows before `minuteWindow` and of day windows
   * before `dayWindow` (window keys `m:YYYY-MM-DDTHH:MM` / `d:YYYY-MM-DD` sort by time); answers how many.
   */
  purgePublicIpCounters(minuteWindow: string, dayWindow: string): Promise<number>;
  /**
   * Removes the public translator's per-IP counters from the `counters` of authorizations created before `before`
   * (the start of the current UTC day: all their windows have passed, so a release has nothing left to give back);
   * answers how many authorizations changed.
   */
  forgetPublicIpsOfAuthorizations(before: Date): Promise<number>;
}
export const COUNTER_PURGE_REPOSITORY = Symbol('COUNTER_PURGE_REPOSITORY');

@Injectable()
export class PostgresCounterPurgeRepository implements CounterPurgeRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async purgePublicIpCounters(minuteWindow: string, dayWindow: string): Promise<number> {
    const rows: unknown[] = await this.ds.query(PURGE_PUBLIC_IP_COUNTERS_SQL, [minuteWindow, dayWindow]);
    return (Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows).length;
  }

  async forgetPublicIpsOfAuthorizations(before: Date): Promise<number> {
    const rows: unknown[] = await this.ds.query(FORGET_PUBLIC_IPS_SQL, [before]);
    return (Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows).length;
  }
}
