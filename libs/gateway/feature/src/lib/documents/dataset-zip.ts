import { isDomainError, type DomainError } from '@gaia/shared/kernel';
import type { FileStorage } from '@gaia/shared/storage';

/** Times a dataset zip is prepared again when the one prepared was replaced before it could be read. */
const DATASET_ZIP_REPREPARES = 1;

const isMissingFile = (e: unknown): boolean => isDomainError(e) && (e as DomainError).code === 'file_not_found';

/**
 * The agent's dataset zip: prepared (ingestion reuses the zip of an unchanged dataset), then read. A newer zip written
 * between the two deletes the one prepared, so a missing zip is prepared again once instead of failing the download.
 */
export async function readDatasetZip(prepare: () => Promise<{ key: string }>, storage: Pick<FileStorage, 'get'>): Promise<Uint8Array> {
  for (let attempt = 0; ; attempt++) {
    const { key } = await prepare();
    try {
      return await storage.get(key);
    } catch (e) {
      if (attempt >= DATASET_ZIP_REPREPARES || !isMissingFile(e)) throw e;
    }
  }
}
