import { isFileNotFound, type FileStorage, type StoredFileStream } from '@gaia/shared/storage';

/** Times a dataset zip is prepared again when the one prepared was replaced before it could be read. */
const DATASET_ZIP_REPREPARES = 1;

/**
 * The agent's dataset zip, opened to stream (never held whole: it can be hundreds of MB): prepared (ingestion reuses
 * the zip of an unchanged dataset), then opened. A newer zip written between the two deletes the one prepared, so a
 * missing zip is prepared again once instead of failing the download; once open, the bytes stay readable.
 */
export async function openDatasetZip(prepare: () => Promise<{ key: string }>, storage: Pick<FileStorage, 'openRead'>): Promise<StoredFileStream> {
  for (let attempt = 0; ; attempt++) {
    const { key } = await prepare();
    try {
      return await storage.openRead(key);
    } catch (e) {
      if (attempt >= DATASET_ZIP_REPREPARES || !isFileNotFound(e)) throw e;
    }
  }
}
