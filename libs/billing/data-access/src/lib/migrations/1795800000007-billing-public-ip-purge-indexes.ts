import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Partial indexes of what the hourly purge of the public translator's per-IP counters reads (counter-purge.repository.ts):
 * the public per-IP counters by window, and the public authorizations whose counters still name a client IP by time
 * (one leaves the index once the purge has forgotten its IP). Without them each purge read all of billing_counter and
 * every public authorization ever made. The predicates are the repository's, word for word, so the planner uses them.
 */
export class BillingPublicIpPurgeIndexes1795800000007 implements MigrationInterface {
  name = 'BillingPublicIpPurgeIndexes1795800000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX billing_counter_public_ip ON billing_counter (window_key) WHERE subject LIKE 'public-ip:%'`);
    await q.query(
      `CREATE INDEX billing_authorization_public_ip ON billing_authorization (created_at)
        WHERE channel = 'public' AND jsonb_path_exists(counters, '$[*] ? (@.subject starts with "public-ip:")')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX billing_authorization_public_ip`);
    await q.query(`DROP INDEX billing_counter_public_ip`);
  }
}
