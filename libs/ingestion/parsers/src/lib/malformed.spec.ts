import { parseFile, parseFiles } from './parse-file';
import { ParseError } from './errors';
import { MAX_FILE_BYTES, MAX_SEGMENT_CHARS } from './limits';

const enc = (s: string) => new TextEncoder().encode(s);
const opts = { srcLang: 'es', tgtLang: 'gn' };

async function failure(filename: string, bytes: Uint8Array): Promise<ParseError> {
  const e = await parseFile({ filename, bytes, ...opts }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ParseError);
  return e as ParseError;
}

describe('malformed input: a clear per-file error, never a crash', () => {
  it('unsupported types use the spec message', async () => {
    expect((await failure('foto.bmp', new Uint8Array([0x42, 0x4d, 0, 0, 1, 2, 3, 0]))).message).toBe('foto.bmp: Unsupported file type');
    expect((await failure('hoja.xlsx', new Uint8Array([0x50, 0x4b, 3, 4, ...enc('[Content_Types].xml xl/')]))).message).toBe(
      'hoja.xlsx: Unsupported file type',
    );
    expect((await failure('prog.exe', new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]))).message).toBe('prog.exe: Unsupported file type');
    expect((await failure('cosa.xml', enc('<root><a/></root>'))).message).toBe('cosa.xml: Unsupported file type (XML files must be TMX)');
  });

  it('empty files', async () => {
    for (const name of ['a.json', 'b.txt', 'c.pdf', 'd.tmx']) {
      const e = await failure(name, new Uint8Array(0));
      expect(e.message).toBe(`${name}: the file is empty`);
      expect(e.code).toBe('EMPTY_FILE');
    }
    expect((await failure('blancos.txt', enc('  \n\n \t\n'))).message).toBe('blancos.txt: the file is empty');
  });

  it('wrong encoding (Latin-1 bytes) is rejected with the offset', async () => {
    const latin1 = new Uint8Array([...enc('[{"source": "Espa'), 0xf1, ...enc('a", "target": "x"}]')]);
    const e = await failure('latin1.json', latin1);
    expect(e.message).toBe('latin1.json: the text is not valid UTF-8 (first bad byte at offset 17); save the file as UTF-8 or UTF-16');
    expect(e.code).toBe('BAD_ENCODING');
  });

  it('UTF-16 with and without BOM is read', async () => {
    const text = 'Hola\tMaitei\nperro\tjagua\n';
    const le = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) le[i * 2] = text.charCodeAt(i);
    const r1 = await parseFile({ filename: 'u16.txt', bytes: new Uint8Array([0xff, 0xfe, ...le]), ...opts });
    const r2 = await parseFile({ filename: 'u16nobom.txt', bytes: le, ...opts });
    expect(r1.pairs).toEqual(r2.pairs);
    expect(r1.pairs).toHaveLength(2);
    const be = new Uint8Array([0xfe, 0xff, 0xd8, 0x00]); // unpaired surrogate
    expect((await failure('bad16.txt', be)).message).toMatch(/^bad16\.txt: the file looks like UTF-16BE but is not valid/);
  });

  it('huge lines are skipped and counted, a file of only huge lines fails clearly', async () => {
    const long = 'a'.repeat(MAX_SEGMENT_CHARS + 1);
    const r = await parseFile({ filename: 'largo.txt', bytes: enc(`Hola\tMaitei\n${long}\tjagua\n`), ...opts });
    expect(r.pairs).toEqual([{ source: 'Hola', target: 'Maitei' }]);
    expect(r.stats.tooLong).toBe(1);
    expect(r.warnings).toContain('largo.txt: 1 pair(s) skipped: a side is longer than 5,000 characters');
    const onlyLong = await failure('solo-largo.json', enc(JSON.stringify([[long, 'x']])));
    expect(onlyLong.message).toBe('solo-largo.json: no sentence pairs found (1 longer than 5,000 characters)');
    // One 3 MB line without any separator
    const e = await failure('linea.txt', enc('x'.repeat(3_000_000)));
    expect(e.message).toMatch(/^linea\.txt: no sentence pairs found/);
  });

  it('files over the size limit', async () => {
    const e = await failure('enorme.json', new Uint8Array(MAX_FILE_BYTES + 1));
    expect(e.message).toBe('enorme.json: the file is larger than 25 MiB');
    expect(e.status).toBe(413);
  });

  it('parseFiles keeps good files and lists bad ones with reasons', async () => {
    const out = await parseFiles(
      [
        { filename: 'bueno.json', bytes: enc('[["Hola","Maitei"]]') },
        { filename: 'roto.json', bytes: enc('[["Hola",') },
        { filename: 'imagen.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]) },
        { filename: 'raro.docx', bytes: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]) },
      ],
      opts,
    );
    expect(out.map((o) => (o.ok ? `${o.filename}: ok` : o.error.message))).toEqual([
      'bueno.json: ok',
      'roto.json: invalid JSON at end of file',
      'imagen.png: images need a vision model (set OPENAI_VISION_MODEL)',
      'raro.docx: Unsupported file type',
    ]);
  });
});
