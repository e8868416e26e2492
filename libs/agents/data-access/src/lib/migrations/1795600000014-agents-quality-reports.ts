import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Quality report per agent version (issue #14): held-out scores of each learning run, the LLM A/B once measured. */
export class AgentsQualityReports1795600000014 implements MigrationInterface {
  name = 'AgentsQualityReports1795600000014';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_quality_report (
        agent_id text NOT NULL REFERENCES agent (id) ON DELETE CASCADE,
        version text NOT NULL,
        measured boolean NOT NULL,
        held_out integer NOT NULL,
        pair_count integer NOT NULL,
        chrf double precision,
        bleu double precision,
        margin double precision,
        evaluation_ms integer NOT NULL DEFAULT 0,
        ab jsonb,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (agent_id, version)
      )`);
    await q.query(`CREATE INDEX agent_quality_report_recent ON agent_quality_report (agent_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS agent_quality_report`);
  }
}
