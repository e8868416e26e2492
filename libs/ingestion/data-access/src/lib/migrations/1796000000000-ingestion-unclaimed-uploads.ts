import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Upload folders (`uploads/<uploadId>/` in FILE_STORAGE) that no ingestion file names, and since when the sweep has
 * seen them unclaimed (upload-sweep.repository.ts). The gateway writes the originals before it registers them; an
 * outage or a crash between the two leaves them with no owner.
 */
export class IngestionUnclaimedUploads1796000000000 implements MigrationInterface {
  name = 'IngestionUnclaimedUploads1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ingestion_unclaimed_upload (prefix text PRIMARY KEY, first_seen timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ingestion_unclaimed_upload`);
  }
}
