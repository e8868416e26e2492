import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Transactional outbox (one delivery row per subscriber), inbox for exactly-once consumers, durable jobs. */
export class MessagingInit1767000000000 implements MigrationInterface {
  name = 'MessagingInit1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_event (
        id uuid PRIMARY KEY,
        seq bigserial NOT NULL,
        topic text NOT NULL,
        key text,
        payload jsonb NOT NULL,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE outbox_delivery (
        event_id uuid NOT NULL REFERENCES outbox_event(id) ON DELETE CASCADE,
        subscriber text NOT NULL,
        seq bigint NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        delivered_at timestamptz,
        PRIMARY KEY (event_id, subscriber)
      )`);
    await q.query(`CREATE INDEX outbox_delivery_due ON outbox_delivery (next_attempt_at, seq) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE inbox_message (
        consumer text NOT NULL,
        event_id uuid NOT NULL,
        topic text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
    await q.query(`
      CREATE TABLE job (
        id uuid PRIMARY KEY,
        kind text NOT NULL,
        dedupe_key text,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        max_attempts int NOT NULL DEFAULT 5,
        run_after timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        locked_by text,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX job_dedupe ON job (kind, dedupe_key) WHERE dedupe_key IS NOT NULL`);
    await q.query(`CREATE INDEX job_due ON job (kind, run_after) WHERE status IN ('pending', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE job');
    await q.query('DROP TABLE inbox_message');
    await q.query('DROP TABLE outbox_delivery');
    await q.query('DROP TABLE outbox_event');
  }
}
