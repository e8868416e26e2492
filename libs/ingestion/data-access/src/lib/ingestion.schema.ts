import type { SchemaBundle } from '@gaia/shared/database';
import { IngestionInit1767400000000 } from './migrations/1767400000000-ingestion-init';
import { IngestionUnclaimedUploads1796000000000 } from './migrations/1796000000000-ingestion-unclaimed-uploads';

export const ingestionSchema: SchemaBundle = {
  name: 'ingestion',
  entities: [],
  migrations: [IngestionInit1767400000000, IngestionUnclaimedUploads1796000000000],
};
