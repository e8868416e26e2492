import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Agents (spec collection `sota`, deleted ones kept as tombstones) and team members (editors). */
export class AgentsInit1767200000000 implements MigrationInterface {
  name = 'AgentsInit1767200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent (
        id text PRIMARY KEY,
        owner_id text NOT NULL,
        owner_email text NOT NULL DEFAULT '',
        src_lang text NOT NULL,
        tgt_lang text NOT NULL,
        custom_prompt text NOT NULL DEFAULT '',
        core_memory text NOT NULL DEFAULT '',
        learned_memory text NOT NULL DEFAULT '',
        public boolean NOT NULL DEFAULT false,
        shared_with_emails text[] NOT NULL DEFAULT '{}',
        document_source text,
        processing_task_id text,
        processing_status text CHECK (processing_status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
        processing_error text,
        document_count int NOT NULL DEFAULT 0,
        text_blocks_extracted int NOT NULL DEFAULT 0,
        pair_count int NOT NULL DEFAULT 0,
        engine text NOT NULL DEFAULT 'builtin' CHECK (engine IN ('builtin', 'llm')),
        artifact_version text,
        artifact_key text,
        version int NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX agent_owner ON agent (owner_id, created_at DESC) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX agent_public ON agent (created_at DESC) WHERE public AND deleted_at IS NULL`);
    await q.query(`CREATE INDEX agent_shared ON agent USING gin (shared_with_emails)`);
    await q.query(`
      CREATE TABLE team_member (
        id text PRIMARY KEY,
        owner_id text NOT NULL,
        name text NOT NULL,
        email text NOT NULL,
        role text NOT NULL DEFAULT 'Editor',
        status text NOT NULL DEFAULT 'invited',
        added_at timestamptz NOT NULL,
        UNIQUE (owner_id, email)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE team_member');
    await q.query('DROP TABLE agent');
  }
}
