import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { DomainError } from '@gaia/shared/kernel';
import type { SeedFile, SeedSourcePort } from './seed-source.port';

/** The seed folder on the local disk (the machine the operator runs `gaia` on). */
export class LocalFolderSeedSource implements SeedSourcePort {
  async list(folder: string): Promise<{ root: string; files: SeedFile[] }> {
    const root = resolve(folder);
    const st = await stat(root).catch(() => null);
    if (!st?.isDirectory()) throw DomainError.invalid(`Not a folder: ${folder}.`, 'seed_folder_missing');
    const files: SeedFile[] = [];
    for (const e of await readdir(root, { withFileTypes: true })) {
      if (e.isFile()) files.push({ dir: '', name: e.name, size: (await stat(join(root, e.name))).size });
      else if (e.isDirectory()) {
        for (const f of await readdir(join(root, e.name), { withFileTypes: true })) {
          if (f.isFile()) files.push({ dir: e.name, name: f.name, size: (await stat(join(root, e.name, f.name))).size });
        }
      }
    }
    return { root: basename(root), files };
  }

  read(folder: string, file: SeedFile): Promise<Buffer> {
    return readFile(join(resolve(folder), file.dir, file.name));
  }
}
