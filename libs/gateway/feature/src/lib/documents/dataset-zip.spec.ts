import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskStorage } from '@gaia/shared/storage';
import { openDatasetZip } from './dataset-zip';

describe('openDatasetZip', () => {
  let dir: string;
  let storage: LocalDiskStorage;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gaia-dataset-zip-'));
    storage = new LocalDiskStorage(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A prepare answering `keys` in turn (the last one again after them), counting its calls. */
  function preparing(...keys: string[]) {
    const calls = { n: 0 };
    const prepare = async () => ({ key: keys[Math.min(calls.n++, keys.length - 1)] });
    return { prepare, calls };
  }

  it('prepares again once when the prepared zip was replaced (its key deleted) before it was read', async () => {
    await storage.put('downloads/new.zip', new Uint8Array([7, 8]));
    const { prepare, calls } = preparing('downloads/old.zip', 'downloads/new.zip');
    const file = await openDatasetZip(prepare, storage);
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    expect([file.size, ...Buffer.concat(chunks)]).toEqual([2, 7, 8]);
    expect(calls.n).toBe(2);
  });

  it('gives up after one more try, with the storage error', async () => {
    const { prepare, calls } = preparing('downloads/gone.zip');
    await expect(openDatasetZip(prepare, storage)).rejects.toMatchObject({ code: 'file_not_found' });
    expect(calls.n).toBe(2);
  });

  it('does not prepare again for other errors', async () => {
    const { prepare, calls } = preparing('../escape.zip');
    await expect(openDatasetZip(prepare, storage)).rejects.toThrow('Invalid storage key');
    expect(calls.n).toBe(1);
  });
});
