import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Plan changes (for proration within a billing month) and plan requests (Starter/Enterprise, granted by the operator). */
export class BillingPlanHistory1795490000000 implements MigrationInterface {
  name = 'BillingPlanHistory1795490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing_plan_change (
        user_id text NOT NULL,
        plan text NOT NULL CHECK (plan IN ('free', 'starter', 'enterprise')),
        previous_plan text NOT NULL CHECK (previous_plan IN ('free', 'starter', 'enterprise')),
        changed_at timestamptz NOT NULL,
        seq bigserial NOT NULL,
        PRIMARY KEY (user_id, seq)
      )`);
    await q.query(`CREATE INDEX billing_plan_change_at ON billing_plan_change (user_id, changed_at)`);
    await q.query(`
      CREATE TABLE billing_plan_request (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        plan text NOT NULL CHECK (plan IN ('starter', 'enterprise')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'granted')),
        requested_at timestamptz NOT NULL,
        granted_at timestamptz,
        seq bigserial NOT NULL
      )`);
    // One open request per user and plan: asking again answers the same request.
    await q.query(`CREATE UNIQUE INDEX billing_plan_request_open ON billing_plan_request (user_id, plan) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing_plan_request`);
    await q.query(`DROP TABLE billing_plan_change`);
  }
}
