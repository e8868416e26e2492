import { DomainError } from '@gaia/shared/kernel';
import { FIELD_MAX_LENGTH, GLOSSARY_MAX_TERMS } from '@gaia/contracts';

/** One term read from an imported file. */
export interface ImportedTerm {
  term: string;
  translation: string;
  note: string;
  caseSensitive: boolean;
}

/** Header words recognised in the first CSV/TSV row (English and Spanish). */
const HEADER_TERM = new Set(['term', 'source', 'término', 'termino', 'origen']);
const TRUE_WORDS = new Set(['true', 'yes', 'sí', 'si', '1', 'x']);
/** Predefined XML entities: the only ones a TBX file may use (besides numeric character references). */
const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const invalid = (message: string) => DomainError.invalid(message, 'invalid_glossary_file');

/** Splits delimited text into rows of fields (RFC 4180 quoting: "a, b", "say ""hi"""). */
export function parseDelimited(content: string, delimiter: ',' | '\t'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const text = content.replace(/^\uFEFF/u, '');
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
    i++;
  }
  if (quoted) throw invalid('The file has an unclosed quote.');
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

function checkTerm(t: ImportedTerm, where: string): ImportedTerm {
  if (!t.term || !t.translation) throw invalid(`${where}: a term and its translation are required.`);
  if (t.term.length > FIELD_MAX_LENGTH.term) throw invalid(`${where}: the term is longer than ${FIELD_MAX_LENGTH.term} characters.`);
  if (t.translation.length > FIELD_MAX_LENGTH.translation)
    throw invalid(`${where}: the translation is longer than ${FIELD_MAX_LENGTH.translation} characters.`);
  if (t.note.length > FIELD_MAX_LENGTH.note) throw invalid(`${where}: the note is longer than ${FIELD_MAX_LENGTH.note} characters.`);
  return t;
}

/** CSV / TSV: term, translation[, note[, case_sensitive]]; a first row naming the columns is skipped. */
export function readDelimitedGlossary(content: string, delimiter: ',' | '\t'): ImportedTerm[] {
  const rows = parseDelimited(content, delimiter);
  const first = rows[0]?.[0]?.trim().toLowerCase();
  const body = first !== undefined && HEADER_TERM.has(first) ? rows.slice(1) : rows;
  const skipped = rows.length - body.length;
  return body.map((r, i) =>
    checkTerm(
      {
        term: (r[0] ?? '').trim(),
        translation: (r[1] ?? '').trim(),
        note: (r[2] ?? '').trim(),
        caseSensitive: TRUE_WORDS.has((r[3] ?? '').trim().toLowerCase()),
      },
      `Line ${i + 1 + skipped}`,
    ),
  );
}

/** One element found by `nextElement`: its attributes, its content and where the text after it starts. */
interface XmlElement {
  name: string;
  attrs: string;
  body: string;
  next: number;
}

/** ASCII letters lower-cased, every other character kept: indexes of `xml` and of its folded copy are the same. */
const foldAscii = (xml: string): string => xml.replace(/[A-Z]+/gu, (m) => m.toLowerCase());

const OPENING_TAGS = new Map<string, RegExp>();
/** The opening tag of any of `names` (lower-case), not a longer name (`<term` is not `<termNote`); one RegExp per list. */
function openingTag(names: readonly string[]): RegExp {
  const key = names.join('|');
  let re = OPENING_TAGS.get(key);
  if (!re) OPENING_TAGS.set(key, (re = new RegExp(`<(${key})(?=[\\s/>])`, 'gu')));
  return re;
}

/**
 * The first element named one of `names` (lower-case) that opens in `xml` at or after `from`, with its content up to
 * the first closing tag of that name. Linear: one forward search for the opening, one for its end, one for its
 * closing tag; an element that is never closed is refused at once (no search again from every opening tag).
 */
function nextElement(xml: string, folded: string, names: readonly string[], from: number, where: string): XmlElement | null {
  const opening = openingTag(names);
  opening.lastIndex = from;
  const m = opening.exec(folded);
  if (!m) return null;
  const name = m[1];
  const notClosed = () => invalid(`${where}: <${xml.slice(m.index + 1, m.index + 1 + name.length)}> is not closed.`);
  const tagEnd = folded.indexOf('>', m.index);
  if (tagEnd < 0) throw notClosed();
  const attrs = xml.slice(m.index + 1 + name.length, tagEnd);
  if (attrs.endsWith('/')) return { name, attrs: attrs.slice(0, -1), body: '', next: tagEnd + 1 };
  const close = folded.indexOf(`</${name}`, tagEnd + 1);
  const closeEnd = close < 0 ? -1 : folded.indexOf('>', close);
  if (closeEnd < 0) throw notClosed();
  return { name, attrs, body: xml.slice(tagEnd + 1, close), next: closeEnd + 1 };
}

/** Every element named one of `names` in `xml`, in order (see `nextElement`). */
function elements(xml: string, names: readonly string[], where: (i: number) => string): XmlElement[] {
  const folded = foldAscii(xml);
  const out: XmlElement[] = [];
  for (let e = nextElement(xml, folded, names, 0, where(0)); e; e = nextElement(xml, folded, names, e.next, where(out.length))) out.push(e);
  return out;
}

/** The first element named one of `names` in `xml`, or null. */
const firstElement = (xml: string, names: readonly string[], where: string): XmlElement | null => nextElement(xml, foldAscii(xml), names, 0, where);

/** Text of an element's content: CDATA kept as is, tags dropped, the predefined entities and character references decoded. */
function decodeXmlText(raw: string, where: string): string {
  const parts: string[] = [];
  let at = 0;
  for (let open = raw.indexOf('<![CDATA['); open >= 0; open = raw.indexOf('<![CDATA[', at)) {
    const close = raw.indexOf(']]>', open + 9);
    if (close < 0) throw invalid(`${where}: a CDATA section is not closed.`);
    parts.push(decodeMarkup(raw.slice(at, open)), raw.slice(open + 9, close));
    at = close + 3;
  }
  parts.push(decodeMarkup(raw.slice(at)));
  return parts.join('').replace(/\s+/gu, ' ').trim();
}

/** Markup outside CDATA: tags dropped, entities decoded. */
function decodeMarkup(text: string): string {
  return text.replace(/<[^<>]*>/gu, '').replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/giu, (_, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) throw invalid(`Invalid character reference &${name};.`);
      return String.fromCodePoint(code);
    }
    const v = XML_ENTITIES[name];
    if (v === undefined) throw invalid(`Unknown entity &${name}; (entities are not allowed in TBX imports).`);
    return v;
  });
}

const langOf = (attrs: string): string =>
  (/\bxml:lang\s*=\s*["']([^"']+)["']/iu.exec(attrs)?.[1] ?? /\blang\s*=\s*["']([^"']+)["']/iu.exec(attrs)?.[1] ?? '').toLowerCase();
const sameLang = (a: string, b: string): boolean => a === b || a.split(/[-_]/u)[0] === b.split(/[-_]/u)[0];

/**
 * TBX (TBX-Basic / TBX v3 `conceptEntry` or older `termEntry`): each entry's term in the source language and the
 * one in the target language (matched by xml:lang, region-tolerant; else the entry's first and second language),
 * its `note` / `descrip` as the note. Read without a DTD: a DOCTYPE, an entity declaration or any entity other
 * than the five predefined ones is refused (no entity expansion), and the size is limited by the caller. Read in
 * one pass (time linear in the size): an element that is never closed is refused, naming it.
 */
export function readTbxGlossary(content: string, langs: { srcLang: string; tgtLang: string }): ImportedTerm[] {
  if (/<!DOCTYPE|<!ENTITY/iu.test(content)) throw invalid('TBX files with a DOCTYPE or entity declarations are not accepted.');
  if (!/<(tbx|martif)\b/iu.test(content)) throw invalid('This is not a TBX file.');
  const out: ImportedTerm[] = [];
  elements(content, ['conceptentry', 'termentry'], (i) => `Entry ${i + 1}`).forEach((entry, i) => {
    const where = `Entry ${i + 1}`;
    const sets: { lang: string; term: string }[] = [];
    for (const section of elements(entry.body, ['langsec', 'langset'], () => where)) {
      const term = firstElement(section.body, ['term'], where);
      if (term) sets.push({ lang: langOf(section.attrs), term: decodeXmlText(term.body, where) });
    }
    const src = sets.find((s) => sameLang(s.lang, langs.srcLang)) ?? sets[0];
    const tgt = sets.find((s) => s !== src && sameLang(s.lang, langs.tgtLang)) ?? sets.find((s) => s !== src);
    if (!src || !tgt) return; // an entry with a single language has nothing to force
    const note = firstElement(entry.body, ['note', 'descrip'], where);
    out.push(checkTerm({ term: src.term, translation: tgt.term, note: note ? decodeXmlText(note.body, where) : '', caseSensitive: false }, where));
  });
  return out;
}

/** Reads an imported glossary file; 400 with the reason when it is invalid or holds too many terms. */
export function readGlossaryFile(format: 'csv' | 'tsv' | 'tbx', content: string, langs: { srcLang: string; tgtLang: string }): ImportedTerm[] {
  const terms = format === 'tbx' ? readTbxGlossary(content, langs) : readDelimitedGlossary(content, format === 'csv' ? ',' : '\t');
  if (terms.length === 0) throw invalid('The file holds no glossary terms.');
  if (terms.length > GLOSSARY_MAX_TERMS) throw invalid(`A glossary holds at most ${GLOSSARY_MAX_TERMS.toLocaleString('en-US')} terms.`);
  return terms;
}
