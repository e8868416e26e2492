import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { DomainError } from '@gaia/shared/kernel';
import type { FileStorage } from './file-storage.port';

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

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const p = this.path(key);
    await mkdir(dirname(p), { recursive: true });
    const tmp = `${p}.${randomUUID()}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, p);
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      return new Uint8Array(await readFile(this.path(key)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw DomainError.notFound(`File not found: ${key}`, 'file_not_found');
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
