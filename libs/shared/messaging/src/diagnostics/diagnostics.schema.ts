import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { SchemaBundle } from '@gaia/shared/database';

export class DiagnosticsInit1767000000100 implements MigrationInterface {
  name = 'DiagnosticsInit1767000000100';
  async up(q: QueryRunner): Promise<void> {
    // No unique constraint on purpose: the exactly-once tests count duplicates instead of hiding them.
    await q.query(
      `CREATE TABLE diagnostics_probe_applied (id bigserial PRIMARY KEY, run_id text NOT NULL, seq int NOT NULL, event_id uuid NOT NULL, applied_by text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    await q.query(`CREATE INDEX diagnostics_probe_run ON diagnostics_probe_applied (run_id)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE diagnostics_probe_applied');
  }
}

export const diagnosticsSchema: SchemaBundle = { name: 'diagnostics', entities: [], migrations: [DiagnosticsInit1767000000100] };
