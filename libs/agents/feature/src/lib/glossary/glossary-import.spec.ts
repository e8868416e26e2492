import { DomainError } from '@gaia/shared/kernel';
import { parseDelimited, readGlossaryFile } from './glossary-import';

const langs = { srcLang: 'es', tgtLang: 'qu' };
const reason = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return e instanceof DomainError ? `${e.status} ${e.message}` : String(e);
  }
  return 'no error';
};

describe('glossary import', () => {
  it('reads CSV with a header, quotes, notes and case sensitivity', () => {
    const csv = 'term,translation,note,case_sensitive\r\n"agua, fría",chiri yaku,"dicho ""así""",\nPerú,Piruw,,yes\n';
    expect(readGlossaryFile('csv', csv, langs)).toEqual([
      { term: 'agua, fría', translation: 'chiri yaku', note: 'dicho "así"', caseSensitive: false },
      { term: 'Perú', translation: 'Piruw', note: '', caseSensitive: true },
    ]);
  });

  it('reads TSV without a header', () => {
    expect(readGlossaryFile('tsv', 'casa\twasi\nsol\tinti\tastro\n', langs)).toEqual([
      { term: 'casa', translation: 'wasi', note: '', caseSensitive: false },
      { term: 'sol', translation: 'inti', note: 'astro', caseSensitive: false },
    ]);
  });

  it('names the line of a row without a translation', () => {
    expect(reason(() => readGlossaryFile('csv', 'term,translation\ncasa,wasi\nsol,\n', langs))).toBe('400 Line 3: a term and its translation are required.');
    expect(reason(() => parseDelimited('"open', ','))).toBe('400 The file has an unclosed quote.');
  });

  it('reads TBX entries by language (either order, region tolerant), with notes and predefined entities', () => {
    const tbx = `<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dct" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2"><text><body>
<conceptEntry id="c1"><descrip type="definition">R&amp;D &#233;</descrip>
  <langSec xml:lang="qu"><termSec><term>wasi</term></termSec></langSec>
  <langSec xml:lang="es-PE"><termSec><term>casa</term></termSec></langSec></conceptEntry>
<termEntry id="c2"><langSet xml:lang="es"><tig><term><![CDATA[sol & luz]]></term></tig></langSet><langSet xml:lang="qu"><tig><term>inti</term></tig></langSet></termEntry>
<conceptEntry id="c3"><langSec xml:lang="es"><termSec><term>solo</term></termSec></langSec></conceptEntry>
</body></text></tbx>`;
    expect(readGlossaryFile('tbx', tbx, langs)).toEqual([
      { term: 'casa', translation: 'wasi', note: 'R&D é', caseSensitive: false },
      { term: 'sol & luz', translation: 'inti', note: '', caseSensitive: false },
    ]);
  });

  it('refuses DOCTYPE, entity declarations and unknown entities (no expansion), and files that are not TBX', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE tbx [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><tbx><conceptEntry><langSec xml:lang="es"><term>&b;</term></langSec><langSec xml:lang="qu"><term>x</term></langSec></conceptEntry></tbx>`;
    expect(reason(() => readGlossaryFile('tbx', bomb, langs))).toBe('400 TBX files with a DOCTYPE or entity declarations are not accepted.');
    const external = `<tbx><conceptEntry><langSec xml:lang="es"><term>&xxe;</term></langSec><langSec xml:lang="qu"><term>x</term></langSec></conceptEntry></tbx>`;
    expect(reason(() => readGlossaryFile('tbx', external, langs))).toBe('400 Unknown entity &xxe; (entities are not allowed in TBX imports).');
    expect(reason(() => readGlossaryFile('tbx', '<html></html>', langs))).toBe('400 This is not a TBX file.');
    expect(reason(() => readGlossaryFile('csv', '\n\n', langs))).toBe('400 The file holds no glossary terms.');
  });

  it('limits the term length', () => {
    expect(reason(() => readGlossaryFile('tsv', `${'a'.repeat(201)}\tb`, langs))).toBe('400 Line 1: the term is longer than 200 characters.');
  });
});
