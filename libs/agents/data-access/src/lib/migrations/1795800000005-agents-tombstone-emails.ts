import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tombstones of deleted agents kept their editors' emails: blanked (a deleted agent keeps nothing personal). */
export class AgentsTombstoneEmails1795800000005 implements MigrationInterface {
  name = 'AgentsTombstoneEmails1795800000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE agent SET shared_with_emails = '{}' WHERE deleted_at IS NOT NULL AND shared_with_emails <> '{}'`);
  }

  async down(): Promise<void> {
    // The emails are gone for good: nothing to restore.
  }
}
