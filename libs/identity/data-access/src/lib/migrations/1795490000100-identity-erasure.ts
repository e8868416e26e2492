import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Account deletions in progress: what the message scrub still has to remove (deleted when done). */
export class IdentityErasure1795490000100 implements MigrationInterface {
  name = 'IdentityErasure1795490000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identity_erasure (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        email text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE identity_erasure`);
  }
}
