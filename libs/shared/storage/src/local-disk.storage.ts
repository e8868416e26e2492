import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError, isDomainError } from '@gaia/shared/kernel';
import type { FileStorage, StoredFileStream } from './file-storage.port';

/** Code of the error `get` and `openRead` throw for a key nothing is stored under (a DomainError, 404). */
export const FILE_NOT_FOUND = 'file_not_found';

/** Whether an error is the storage's "nothing stored under this key". */
export function isFileNotFound(e: unknown): boolean {
  return isDomainError(e) && e.code === FILE_NOT_FOUND;
}

/** A missing file as the storage's not-found error (code `file_not_found`), any other error as it is. */
function notFoundAs(e: unknown, key: string): unknown {
  return (e as NodeJS.ErrnoException).code === 'ENOENT' ? DomainError.notFound(`File not found: ${key}`, FILE_NOT_FOUND) : e;
}

export class LocalDiskStorage implements FileStorage {
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    if (!key || key.includes('\0')) throw DomainError.invalid('Invalid storage key');
    const p = resolve(this.root, key);
    if (p !== this.root && !p.startsWith(this.root + sep)) throw DomainError.invalid('Invalid storage key');
    return p;
  }

  /** Writes a new file for `key` through `write(tmp)`, then renames it into place: readers never see a torn file; a failed write leaves the old one. */
  private async atomically(key: string, write: (tmp: string) => Promise<void>): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.${randomUUID()}.tmp`;
    try {
      await write(tmp);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    await rename(tmp, p);
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    return this.atomically(key, (tmp) => writeFile(tmp, bytes));
  }

  async putStream(key: string, chunks: AsyncIterable<Uint8Array>): Promise<number> {
    let size = 0;
    await this.atomically(key, async (tmp) => {
      const file = createWriteStream(tmp);
      await pipeline(Readable.from(chunks, { objectMode: false }), file);
      size = file.bytesWritten;
    });
    return size;
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      return new Uint8Array(await readFile(this.path(key)));
    } catch (e) {
      throw notFoundAs(e, key);
    }
  }

  async openRead(key: string): Promise<StoredFileStream> {
    const p = this.path(key);
    const handle = await open(p, 'r').catch((e: unknown) => {
      throw notFoundAs(e, key);
    });
    try {
      const { size } = await handle.stat();
      // the open handle keeps the bytes readable if the key is replaced or deleted meanwhile; the stream closes it
      return { size, stream: handle.createReadStream() };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.path(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(keyOrPrefix: string): Promise<void> {
    await rm(this.path(keyOrPrefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const base = this.path(prefix.replace(/\/+$/, ''));
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const full = join(dir, e.name);
        if (e.isDirectory()) await walk(full);
        else if (!e.name.endsWith('.tmp')) out.push(relative(this.root, full).split(sep).join('/'));
      }
    };
    await walk(base);
    return out.sort();
  }
}
