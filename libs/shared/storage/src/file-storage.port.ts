/** Blob storage for uploaded originals and agent artifacts (local disk here; a shared volume or bucket at scale). */
export const FILE_STORAGE = Symbol('FILE_STORAGE');

export interface FileStorage {
  /** Writes atomically: readers see the old bytes or the new bytes, never a torn file. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  exists(key: string): Promise<boolean>;
  /** Deletes one key, or every key under `prefix/` when it ends with '/'. */
  delete(keyOrPrefix: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
}
