import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * What the sweep of unclaimed uploads reads and writes: which upload folders ingestion files name, and since when
 * the others have been seen unclaimed. Every method runs on the caller's EntityManager (its transaction).
 */
export interface UploadSweepRepositoryPort {
  /** Those of `prefixes` (`uploads/<id>/`) that some ingestion file's storage key is under. */
  claimed(em: EntityManager, prefixes: readonly string[]): Promise<Set<string>>;
  /** Remembers `prefixes` as seen unclaimed now (those already remembered keep their first sighting) and forgets every other. */
  remember(em: EntityManager, prefixes: readonly string[]): Promise<void>;
  /** Prefixes seen unclaimed for at least `graceMs` (database time). */
  unclaimedSince(em: EntityManager, graceMs: number): Promise<string[]>;
  forget(em: EntityManager, prefix: string): Promise<void>;
}
export const UPLOAD_SWEEP_REPOSITORY = Symbol('UPLOAD_SWEEP_REPOSITORY');

@Injectable()
export class PostgresUploadSweepRepository implements UploadSweepRepositoryPort {
  async claimed(em: EntityManager, prefixes: readonly string[]): Promise<Set<string>> {
    if (!prefixes.length) return new Set();
    const rows: Array<{ prefix: string }> = await em.query(
      `SELECT DISTINCT p.prefix FROM unnest($1::text[]) AS p(prefix)
        WHERE EXISTS (SELECT 1 FROM ingestion_file f WHERE starts_with(f.storage_key, p.prefix))`,
      [[...prefixes]],
    );
    return new Set(rows.map((r) => r.prefix));
  }

  async remember(em: EntityManager, prefixes: readonly string[]): Promise<void> {
    await em.query(`DELETE FROM ingestion_unclaimed_upload WHERE NOT (prefix = ANY($1::text[]))`, [[...prefixes]]);
    if (prefixes.length)
      await em.query(`INSERT INTO ingestion_unclaimed_upload (prefix) SELECT unnest($1::text[]) ON CONFLICT (prefix) DO NOTHING`, [[...prefixes]]);
  }

  async unclaimedSince(em: EntityManager, graceMs: number): Promise<string[]> {
    const rows: Array<{ prefix: string }> = await em.query(
      `SELECT prefix FROM ingestion_unclaimed_upload WHERE first_seen <= now() - make_interval(secs => $1::float8 / 1000) ORDER BY prefix`,
      [graceMs],
    );
    return rows.map((r) => r.prefix);
  }

  async forget(em: EntityManager, prefix: string): Promise<void> {
    await em.query(`DELETE FROM ingestion_unclaimed_upload WHERE prefix = $1`, [prefix]);
  }
}
