import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What billing keeps of a deleted account: anonymous totals per month and engine. */
export class BillingAnonymousUsage1795490000200 implements MigrationInterface {
  name = 'BillingAnonymousUsage1795490000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing_anonymous_usage (
        month date NOT NULL,
        engine text NOT NULL,
        requests bigint NOT NULL,
        words bigint NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        PRIMARY KEY (month, engine)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing_anonymous_usage`);
  }
}
