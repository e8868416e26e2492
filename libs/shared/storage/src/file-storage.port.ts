import type { Readable } from 'node:stream';
/** Blob storage for uploaded originals and agent artifacts (local disk here; a shared volume or bucket at scale). */
export const FILE_STORAGE = Symbol('FILE_STORAGE');

/** A stored file opened for reading (`FileStorage.openRead`). */
export interface StoredFileStream {
  size: number;
  stream: Readable;
}

export interface FileStorage {
  /** Writes atomically: readers see the old bytes or the new bytes, never a torn file. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  /** Opens a file to send without holding it whole: its size and its bytes as a stream (the file as it was when opened). */
  openRead(key: string): Promise<StoredFileStream>;
  exists(key: string): Promise<boolean>;
  /** Deletes one key, or every key under `prefix/` when it ends with '/'. */
  delete(keyOrPrefix: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
}
