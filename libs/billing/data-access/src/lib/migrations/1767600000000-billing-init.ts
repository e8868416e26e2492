import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Plans per user, quota counters per (subject, window), authorizations per request, usage records. */
export class BillingInit1767600000000 implements MigrationInterface {
  name = 'BillingInit1767600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing_plan (
        user_id text PRIMARY KEY,
        plan text NOT NULL CHECK (plan IN ('free', 'starter', 'enterprise')),
        changed_at timestamptz NOT NULL
      )`);
    // One row per (subject, window), incremented with a conditional upsert: the row lock makes
    // check-and-consume atomic across processes.
    await q.query(`
      CREATE TABLE billing_counter (
        subject text NOT NULL,
        window_key text NOT NULL,
        count int NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (subject, window_key)
      )`);
    await q.query(`
      CREATE TABLE billing_authorization (
        request_id text PRIMARY KEY,
        user_id text,
        key_id text,
        channel text NOT NULL,
        plan text NOT NULL,
        counters jsonb NOT NULL DEFAULT '[]',
        status text NOT NULL DEFAULT 'allowed' CHECK (status IN ('allowed', 'released')),
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE billing_key_owner (
        key_id text PRIMARY KEY,
        user_id text,
        rate_limit int,
        seen_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE billing_usage (
        request_id text PRIMARY KEY,
        key_id text,
        user_id text,
        agent_id text NOT NULL,
        words int NOT NULL,
        input_tokens int NOT NULL,
        output_tokens int NOT NULL,
        engine text NOT NULL,
        fallback_reason text,
        latency_ms double precision NOT NULL,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX billing_usage_key ON billing_usage (key_id, occurred_at DESC) WHERE key_id IS NOT NULL`);
    await q.query(`CREATE INDEX billing_usage_user ON billing_usage (user_id, occurred_at) WHERE user_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['billing_usage', 'billing_key_owner', 'billing_authorization', 'billing_counter', 'billing_plan']) await q.query(`DROP TABLE ${t}`);
  }
}
