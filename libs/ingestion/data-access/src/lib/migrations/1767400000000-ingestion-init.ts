import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Processing tasks, their uploaded files (originals in FILE_STORAGE) and every agent's normalised pairs. */
export class IngestionInit1767400000000 implements MigrationInterface {
  name = 'IngestionInit1767400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ingestion_task (
        id uuid PRIMARY KEY,
        agent_id text NOT NULL,
        owner_id text NOT NULL,
        mode text NOT NULL CHECK (mode IN ('create', 'update')),
        src_lang text NOT NULL,
        tgt_lang text NOT NULL,
        status text NOT NULL DEFAULT 'PROCESSING' CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
        progress int NOT NULL DEFAULT 0,
        message text NOT NULL DEFAULT '',
        estimated_processing_time int NOT NULL DEFAULT 0,
        total_pages int NOT NULL DEFAULT 0,
        total_files int NOT NULL,
        successful_files int NOT NULL DEFAULT 0,
        text_blocks_extracted int NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]',
        idempotency_key text,
        pairs_version text,
        pair_count int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX ingestion_task_idem ON ingestion_task (owner_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await q.query(`CREATE INDEX ingestion_task_agent ON ingestion_task (agent_id, created_at)`);
    await q.query(`
      CREATE TABLE ingestion_file (
        id uuid PRIMARY KEY,
        task_id uuid NOT NULL REFERENCES ingestion_task(id) ON DELETE CASCADE,
        agent_id text NOT NULL,
        idx int NOT NULL,
        filename text NOT NULL,
        storage_key text NOT NULL,
        size bigint NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed', 'merged')),
        companion_idx int,
        format text,
        error text,
        pairs_added int NOT NULL DEFAULT 0,
        text_blocks int NOT NULL DEFAULT 0,
        pages int NOT NULL DEFAULT 0,
        stats jsonb,
        warnings jsonb NOT NULL DEFAULT '[]',
        UNIQUE (task_id, idx)
      )`);
    await q.query(`CREATE INDEX ingestion_file_agent ON ingestion_file (agent_id)`);
    await q.query(`
      CREATE TABLE ingestion_pair (
        agent_id text NOT NULL,
        pair_hash text NOT NULL,
        ord bigint NOT NULL,
        source text NOT NULL,
        target text NOT NULL,
        task_id uuid NOT NULL,
        file_idx int NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (agent_id, pair_hash)
      )`);
    await q.query(`CREATE INDEX ingestion_pair_order ON ingestion_pair (agent_id, ord)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ingestion_pair');
    await q.query('DROP TABLE ingestion_file');
    await q.query('DROP TABLE ingestion_task');
  }
}
