import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Email verification: when a user proved the address, and single-use link tokens (only their SHA-256 is stored). */
export class IdentityEmailVerification1779500000000 implements MigrationInterface {
  name = 'IdentityEmailVerification1779500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity_user ADD COLUMN IF NOT EXISTS email_verified_at timestamptz`);
    await q.query(`
      CREATE TABLE identity_email_token (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES identity_user(id) ON DELETE CASCADE,
        email text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX identity_email_token_user ON identity_email_token (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS identity_email_token`);
    await q.query(`ALTER TABLE identity_user DROP COLUMN IF EXISTS email_verified_at`);
  }
}
