import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Which live instance holds a job or an outbox delivery lease (its liveness key), so a dead holder's lease is free at once. */
export class MessagingLeaseHolders1767951200000 implements MigrationInterface {
  name = 'MessagingLeaseHolders1767951200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job ADD COLUMN holder bigint`);
    await q.query(`ALTER TABLE outbox_delivery ADD COLUMN holder bigint`);
    // Leased deliveries of a dead holder are looked up apart from the due ones.
    await q.query(`CREATE INDEX outbox_delivery_held ON outbox_delivery (holder) WHERE status = 'pending' AND holder IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX outbox_delivery_held`);
    await q.query(`ALTER TABLE outbox_delivery DROP COLUMN holder`);
    await q.query(`ALTER TABLE job DROP COLUMN holder`);
  }
}
