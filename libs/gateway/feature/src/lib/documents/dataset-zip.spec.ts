import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskStorage } from '@gaia/shared/storage';
import { readDatasetZip } from './dataset-zip';

describe('readDatasetZip', () => {
  let dir: string;
  let storage: LocalDiskStorage;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gaia-dataset-zip-'));
    storage = new LocalDiskStorage(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prepares again once when the prepared zip was replaced (its key deleted) before it was read', async () => {
    await storage.put('downloads/new.zip', new Uint8Array([7, 8]));
    const keys = ['downloads/old.zip', 'downloads/new.zip'];
    let prepared = 0;
    const bytes = await readDatasetZip(async () => ({ key: keys[prepared++] }), storage);
    expect(Array.from(bytes)).toEqual([7, 8]);
    expect(prepared).toBe(2);
  });

  it('gives up after one more try, with the storage error', async () => {
    let prepared = 0;
    await expect(
      readDatasetZip(async () => {
        prepared++;
        return { key: 'downloads/gone.zip' };
      }, storage),
    ).rejects.toMatchObject({ code: 'file_not_found' });
    expect(prepared).toBe(2);
  });

  it('does not prepare again for other errors', async () => {
    let prepared = 0;
    await expect(
      readDatasetZip(async () => {
        prepared++;
        return { key: '../escape.zip' };
      }, storage),
    ).rejects.toThrow('Invalid storage key');
    expect(prepared).toBe(1);
  });
});
