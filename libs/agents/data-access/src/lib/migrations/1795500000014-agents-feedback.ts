import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owners' feedback (issue 14): corrections ("Suggest a better translation") and the glossary (term → required
 * translation), rows of their agent (removed with it), plus `agent.feedback_version`, bumped with every change of
 * either so translation replicas know when their cached copy is stale (it travels on agents.resolve.v1).
 */
export class AgentsFeedback1795500000014 implements MigrationInterface {
  name = 'AgentsFeedback1795500000014';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent ADD COLUMN feedback_version bigint NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE agent_correction (
        id text PRIMARY KEY,
        agent_id text NOT NULL REFERENCES agent (id) ON DELETE CASCADE,
        source text NOT NULL,
        translation text NOT NULL DEFAULT '',
        corrected text NOT NULL,
        author_uid text NOT NULL,
        author_email text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX agent_correction_agent ON agent_correction (agent_id, created_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE agent_glossary_term (
        id text PRIMARY KEY,
        agent_id text NOT NULL REFERENCES agent (id) ON DELETE CASCADE,
        term text NOT NULL,
        term_key text NOT NULL,
        translation text NOT NULL,
        note text NOT NULL DEFAULT '',
        case_sensitive boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX agent_glossary_term_key ON agent_glossary_term (agent_id, term_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS agent_glossary_term`);
    await q.query(`DROP TABLE IF EXISTS agent_correction`);
    await q.query(`ALTER TABLE agent DROP COLUMN IF EXISTS feedback_version`);
  }
}
