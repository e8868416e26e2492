import { zipSync, gzipSync } from 'fflate';
import { detectFileKind } from './detect-file-kind';

const enc = (s: string) => new TextEncoder().encode(s);
const utf16le = (s: string) => {
  const b = new Uint8Array(2 + s.length * 2);
  b[0] = 0xff;
  b[1] = 0xfe;
  for (let i = 0; i < s.length; i++) {
    b[2 + i * 2] = s.charCodeAt(i) & 0xff;
    b[3 + i * 2] = s.charCodeAt(i) >> 8;
  }
  return b;
};

describe('detectFileKind', () => {
  it.each([
    ['a.pdf', enc('%PDF-1.7\n...'), 'pdf', false],
    ['renamed.json', enc('%PDF-1.4\n...'), 'pdf', true],
    ['scan.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), 'png', false],
    ['photo.dat', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'jpeg', false],
    ['data.pdf', enc('[{"source":"a","target":"b"}]'), 'json', true],
    ['data.txt', enc('{"source":"a","target":"b"}\n{"source":"c","target":"d"}\n'), 'jsonl', true],
    ['mem.xml', enc('<?xml version="1.0"?>\n<tmx version="1.4"><body></body></tmx>'), 'tmx', false],
    ['other.xml', enc('<?xml version="1.0"?><root/>'), 'xml', false],
    ['noext', enc('hola\tmaitei\nperro\tjagua\n'), 'tsv', false],
    ['p.csv', enc('source,target\nhola,maitei\n'), 'csv', false],
    ['utf16.txt', utf16le('hola\tmaitei\n'), 'txt', false],
    ['a.zip', zipSync({ 'x.json': enc('[]') }), 'zip', false],
    ['a.json.gz', gzipSync(enc('[]')), 'gzip', false],
    ['doc.docx', zipSync({ '[Content_Types].xml': enc('<Types/>'), 'word/document.xml': enc('<w/>') }), 'office', false],
    ['bin.json', new Uint8Array([1, 2, 0, 4, 5, 6, 7, 8]), 'binary', true],
    ['empty.json', new Uint8Array(0), 'empty', false],
  ])('%s is %s', (name, bytes, kind, renamed) => {
    const d = detectFileKind(name, bytes);
    expect(d.kind).toBe(kind);
    expect(d.renamed).toBe(renamed);
  });

  it('reports UTF-16 encodings', () => {
    expect(detectFileKind('a.txt', utf16le('hola\tmaitei')).encoding).toBe('utf-16le');
  });
});
