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

  it('prepares again once when the prepared zip was replaced (its key deleted) before it was read', async () => {
    await storage.put('downloads/new.zip', new Uint8Array([7, 8]));
    const keys = ['downloads/old.zip', 'downloads/new.zip'];
    let prepared = 0;
    const file = await openDatasetZip(async () => ({ key: keys[prepared++] }), storage);
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    expect([file.size, ...Buffer.concat(chunks)]).toEqual([2, 7, 8]);
    expect(prepared).toBe(2);
  });

  it('gives up after one more try, with the storage error', async () => {
    let prepared = 0;
    await expect(
      openDatasetZip(async () => {
        prepared++;
        return { key: 'downloads/gone.zip' };
      }, storage),
    ).rejects.toMatchObject({ code: 'file_not_found' });
    expect(prepared).toBe(2);
  });

  it('does not prepare again for other errors', async () => {
    let prepared = 0;
    await expect(
      openDatasetZip(async () => {
        prepared++;
        return { key: '../escape.zip' };
      }, storage),
    ).rejects.toThrow('Invalid storage key');
    expect(prepared).toBe(1);
  });
});
