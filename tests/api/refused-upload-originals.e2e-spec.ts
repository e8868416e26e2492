import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from '@gaia/testing';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { signUp, startApi } from './support/api-app';
import { uploadDocuments } from './support/documents';

/** Every file under `dir` (path relative to it, '/'-separated); none when it does not exist. */
function walk(dir: string, base = dir): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory()
      ? walk(p, base)
      : [
          p
            .slice(base.length + 1)
            .split('\\')
            .join('/'),
        ];
  });
}

/**
 * The gateway stores an upload's originals (`uploads/<uploadId>/…`) before ingestion registers them; when ingestion
 * refuses the upload, no task or agent ever owns them, so neither agent nor account deletion would remove them:
 * the refusal removes them at once.
 */
describe('a refused document upload leaves no original in file storage', () => {
  let t: TestApp & { url: string };
  beforeAll(async () => {
    t = await startApi({ ensure: [{ module: IngestionModule, schema: ingestionSchema }] });
  });
  afterAll(() => t?.close());

  const storageDir = () => t.config.FILE_STORAGE_DIR ?? join(t.config.DATA_DIR, 'files');
  const filesMentioning = (needle: string) =>
    walk(storageDir()).filter((f) => `${f}\n${readFileSync(join(storageDir(), f)).toString('utf8')}`.toLowerCase().includes(needle));

  it('415 (every file unsupported): the stored originals are removed', async () => {
    const ana = await signUp(t.url, 'refused-upload');
    const res = await uploadDocuments(ana, { src_lang: 'es', tgt_lang: 'xx', custom_prompt: 'refused' }, [
      { name: 'notas.xml', data: '<doc>refusedmarker: contrato privado</doc>' },
      { name: 'vacio.txt', data: '' },
    ]);
    expect(res.status).toBe(415);
    expect(filesMentioning('refusedmarker')).toEqual([]);
    expect(walk(storageDir()).filter((f) => f.startsWith('uploads/'))).toEqual([]);
  });
});
