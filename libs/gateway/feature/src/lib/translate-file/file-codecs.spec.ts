import { formatOf, parseFile, readDelimited } from './file-codecs';

const o = { srcLang: 'es', tgtLang: 'qu' };
const upper = (segs: string[]) => segs.map((s) => s.toUpperCase());

describe('file codecs', () => {
  it('TXT: every non-blank line, blank lines and line endings kept', () => {
    const f = parseFile('txt', 'hola\r\n\r\n  buenos días \nadiós', o);
    expect(f.segments).toEqual(['hola', 'buenos días', 'adiós']);
    expect(f.render(upper(f.segments))).toBe('HOLA\r\n\r\nBUENOS DÍAS\nADIÓS');
    expect(f.render([null, 'X', null])).toBe('hola\r\n\r\nX\nadiós');
  });

  it('CSV: a chosen column by name, quoted fields, the target column appended (or filled when present)', () => {
    const f = parseFile('csv', 'id,es,note\n1,"hola, amigo",x\n2,,y\n3,"dice ""sí""",z\n', { ...o, column: 'es' });
    expect(f.segments).toEqual(['hola, amigo', 'dice "sí"']);
    expect(f.render(['rimaykullayki', 'nin "arí"'])).toBe('id,es,note,qu\n1,"hola, amigo",x,rimaykullayki\n2,,y,\n3,"dice ""sí""",z,"nin ""arí"""\n');
    const g = parseFile('csv', 'es,qu\nhola,\n', o);
    expect(g.render(['napaykullayki'])).toBe('es,qu\nhola,napaykullayki\n');
    expect(() => parseFile('csv', 'a,b\n1,2\n', { ...o, column: 'zz' })).toThrow('Column not found: zz. The header has: a, b.');
  });

  it('TSV: a column by index', () => {
    const f = parseFile('tsv', 'n\ttext\n1\tagua\n', { ...o, column: '1' });
    expect(f.segments).toEqual(['agua']);
    expect(f.render(['yaku'])).toBe('n\ttext\tqu\n1\tagua\tyaku\n');
    expect(readDelimited('a\t"b\nc"\n', '\t')).toEqual([['a', 'b\nc']]);
  });

  it('TMX: each tu gets a target tuv (replaced when present), entities decoded and encoded', () => {
    const tmx = [
      '<?xml version="1.0"?>',
      '<tmx version="1.4"><header srclang="es"/><body>',
      '  <tu>',
      '    <tuv xml:lang="es"><seg>pan &amp; agua</seg></tuv>',
      '  </tu>',
      '  <tu><tuv xml:lang="es"><seg>sol</seg></tuv><tuv xml:lang="qu"><seg>old</seg></tuv></tu>',
      '</body></tmx>',
    ].join('\n');
    const f = parseFile('tmx', tmx, o);
    expect(f.segments).toEqual(['pan & agua', 'sol']);
    const out = f.render(["t'anta <y> yaku", 'inti']);
    expect(out).toContain('<tuv xml:lang="es"><seg>pan &amp; agua</seg></tuv>\n    <tuv xml:lang="qu"><seg>t\'anta &lt;y&gt; yaku</seg></tuv>\n  </tu>');
    expect(out).toContain('<tuv xml:lang="qu"><seg>inti</seg></tuv></tu>');
    expect(out).not.toContain('old');
  });

  it('XLIFF 1.2 and 2.0: each source gets its target', () => {
    const x12 =
      '<xliff version="1.2"><file source-language="es" target-language="qu"><body><trans-unit id="1"><source>casa</source></trans-unit><trans-unit id="2"><source>luna</source><target/></trans-unit></body></file></xliff>';
    const f = parseFile('xliff', x12, o);
    expect(f.segments).toEqual(['casa', 'luna']);
    expect(f.render(['wasi', 'killa'])).toBe(
      x12.replace('<source>casa</source>', '<source>casa</source><target>wasi</target>').replace('<target/>', '<target>killa</target>'),
    );
    const x20 =
      '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="es" trgLang="qu"><file id="f"><unit id="u"><segment><source>río</source></segment></unit></file></xliff>';
    const g = parseFile('xliff', x20, o);
    expect(g.segments).toEqual(['río']);
    expect(g.render(['mayu'])).toContain('<segment><source>río</source><target>mayu</target></segment>');
  });

  it('guesses the format from the extension and refuses others', () => {
    expect(formatOf('a.TMX')).toBe('tmx');
    expect(formatOf('a.xlf')).toBe('xliff');
    expect(formatOf('a.bin', 'tsv')).toBe('tsv');
    expect(() => formatOf('a.pdf')).toThrow('a.pdf: Unsupported file type. Translate TXT, CSV, TSV, TMX or XLIFF files.');
  });
});
