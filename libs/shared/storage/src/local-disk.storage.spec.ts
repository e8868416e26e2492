import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskStorage } from './local-disk.storage';

describe('LocalDiskStorage', () => {
  let dir: string;
  let s: LocalDiskStorage;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gaia-storage-'));
    s = new LocalDiskStorage(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('puts, gets, lists and deletes by prefix', async () => {
    await s.put('agents/a1/original/x.json', new TextEncoder().encode('{"a":1}'));
    await s.put('agents/a1/model.bin', new Uint8Array([1, 2, 3]));
    await s.put('agents/a2/model.bin', new Uint8Array([4]));
    expect(new TextDecoder().decode(await s.get('agents/a1/original/x.json'))).toBe('{"a":1}');
    expect(await s.list('agents/a1/')).toEqual(['agents/a1/model.bin', 'agents/a1/original/x.json']);
    await s.delete('agents/a1/');
    expect(await s.exists('agents/a1/model.bin')).toBe(false);
    expect(await s.exists('agents/a2/model.bin')).toBe(true);
  });

  it('opens a file for reading as a stream with its size; the file as it was when opened, even if deleted after', async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    await s.put('downloads/a.zip', bytes);
    const file = await s.openRead('downloads/a.zip');
    expect(file.size).toBe(bytes.length);
    await s.delete('downloads/a.zip');
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    expect(new Uint8Array(Buffer.concat(chunks))).toEqual(bytes);
    await expect(s.openRead('downloads/a.zip')).rejects.toMatchObject({ code: 'file_not_found' });
    await expect(s.openRead('../evil')).rejects.toThrow('Invalid storage key');
  });

  it('writes a stream of chunks atomically: readers see the old bytes until it ends; a failing source leaves the old file', async () => {
    await s.put('downloads/a.zip', new Uint8Array([9]));
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3])];
    async function* source(fail: boolean, before = new Uint8Array([9])) {
      for (const c of chunks) {
        yield c;
        // mid-write, the key still holds the old bytes
        expect(await s.get('downloads/a.zip')).toEqual(before);
      }
      if (fail) throw new Error('source failed');
    }
    await expect(s.putStream('downloads/a.zip', source(true))).rejects.toThrow('source failed');
    expect(await s.get('downloads/a.zip')).toEqual(new Uint8Array([9]));
    expect(await s.list('downloads/')).toEqual(['downloads/a.zip']);
    expect(await s.putStream('downloads/a.zip', source(false))).toBe(3);
    expect(await s.get('downloads/a.zip')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await s.putStream('new/b.bin', source(false, new Uint8Array([1, 2, 3])))).toBe(3);
    await expect(s.putStream('../evil', source(false))).rejects.toThrow('Invalid storage key');
  });

  it('refuses keys that escape the root', async () => {
    await expect(s.put('../evil', new Uint8Array())).rejects.toThrow('Invalid storage key');
    await expect(s.get('a/../../etc/passwd')).rejects.toThrow('Invalid storage key');
  });

  it('reports a missing key as not found', async () => {
    await expect(s.get('nope')).rejects.toMatchObject({ status: 404 });
  });
});
