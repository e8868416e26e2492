import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The partial indexes this migration adds: name → definition after `ON`. */
const INDEXES: ReadonlyArray<readonly [string, string]> = [
  ['billing_counter_public_ip', `billing_counter (window_key) WHERE subject LIKE 'public-ip:%'`],
  [
    'billing_authorization_public_ip',
    `billing_authorization (created_at)
      WHERE channel = 'public' AND jsonb_path_exists(counters, '$[*] ? (@.subject starts with "public-ip:")')`,
  ],
];

/**
 * Partial indexes of what the hourly purge of the public translator's per-IP counters reads (counter-purge.repository.ts):
 * the public per-IP counters by window, and the public authorizations whose counters still name a client IP by time
 * (one leaves the index once the purge has forgotten its IP). Without them each purge read all of billing_counter and
 * every public authorization ever made. The predicates are the repository's, word for word, so the planner uses them.
 *
 * Built CONCURRENTLY, outside a transaction: billing_authorization takes a row per translation, and a plain CREATE
 * INDEX would hold every authorization behind its lock while it waits for a long open transaction on the table. An
 * index left invalid by an interrupted build is dropped and built again.
 */
export class BillingPublicIpPurgeIndexes1795800000007 implements MigrationInterface {
  name = 'BillingPublicIpPurgeIndexes1795800000007';
  transaction = false as const;

  async up(q: QueryRunner): Promise<void> {
    for (const [name, definition] of INDEXES) {
      const invalid: unknown[] = await q.query(`SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND NOT i.indisvalid`, [
        name,
      ]);
      if (invalid.length) await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
      await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${definition}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  }
}
