import { gzipSync, zipSync } from 'fflate';
import { parseFile } from '../parse-file';
import { MAX_DECOMPRESSED_BYTES } from '../limits';

const enc = (s: string) => new TextEncoder().encode(s);
const opts = { srcLang: 'es', tgtLang: 'gn' };

describe('compressed uploads', () => {
  it('reads every supported file of a ZIP, pairs Moses halves, and reports the rest', async () => {
    const zip = zipSync({
      'datos/a.json': enc('[["Hola","Maitei"]]'),
      'datos/b.es': enc('perro\n'),
      'datos/b.gn': enc('jagua\n'),
      'datos/notas.docx': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3]),
      '__MACOSX/._a.json': enc('junk'),
    });
    const r = await parseFile({ filename: 'corpus.zip', bytes: zip, ...opts });
    expect(r.pairs).toEqual([
      { source: 'Hola', target: 'Maitei' },
      { source: 'perro', target: 'jagua' },
    ]);
    expect(r.warnings).toContain('corpus.zip/datos/notas.docx: Unsupported file type');
  });

  it('reads a gzip-compressed JSON file', async () => {
    const r = await parseFile({ filename: 'pares.json.gz', bytes: gzipSync(enc('[["Hola","Maitei"]]')), ...opts });
    expect(r.pairs).toEqual([{ source: 'Hola', target: 'Maitei' }]);
  });

  it('stops a zip bomb while decompressing (declared sizes are not trusted)', async () => {
    const huge = new Uint8Array(MAX_DECOMPRESSED_BYTES + 1024 * 1024); // all zeros: compresses ~1000:1
    const zip = zipSync({ 'bomba.txt': huge }, { level: 9 });
    expect(zip.length).toBeLessThan(1024 * 1024);
    await expect(parseFile({ filename: 'bomba.zip', bytes: zip, ...opts })).rejects.toThrow(/^bomba\.zip: the archive expands to more than \d+ MiB/);
    const gz = gzipSync(huge, { level: 9 });
    await expect(parseFile({ filename: 'bomba.txt.gz', bytes: gz, ...opts })).rejects.toThrow(/^bomba\.txt\.gz: the archive expands to more than/);
  });

  it('reports a damaged archive and an archive of unsupported files', async () => {
    const zip = zipSync({ 'a.json': enc('[["Hola","Maitei"]]'.repeat(50)) });
    const broken = zip.slice(0, 40);
    await expect(parseFile({ filename: 'roto.zip', bytes: broken, ...opts })).rejects.toThrow(/^roto\.zip: /);
    const office = zipSync({ 'x.bin': new Uint8Array([0, 1, 2, 3]) });
    await expect(parseFile({ filename: 'otros.zip', bytes: office, ...opts })).rejects.toThrow(/^otros\.zip: /);
  });
});
