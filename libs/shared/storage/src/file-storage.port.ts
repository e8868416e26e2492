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
  /**
   * Writes the chunks as they come, atomically like `put` (readers see the old bytes until the last chunk is written; a
   * source that fails leaves them), without holding the file whole. Answers the bytes written.
   */
  putStream(key: string, chunks: AsyncIterable<Uint8Array>): Promise<number>;
  get(key: string): Promise<Uint8Array>;
  /** Opens a file to send without holding it whole: its size and its bytes as a stream (the file as it was when opened). */
  openRead(key: string): Promise<StoredFileStream>;
  exists(key: string): Promise<boolean>;
  /** Deletes one key, or every key under `prefix/` when it ends with '/'. */
  delete(keyOrPrefix: string): Promise<void>;
  list(prefix: string): Promise<string[]>;
}
