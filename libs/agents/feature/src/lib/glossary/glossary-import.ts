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

function decodeXmlText(raw: string): string {
  const cdata: string[] = [];
  const withoutCdata = raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/gu, (_, c: string) => `\u0000${cdata.push(c) - 1}\u0000`);
  const text = withoutCdata.replace(/<[^>]*>/gu, '').replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/giu, (_, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) throw invalid(`Invalid character reference &${name};.`);
      return String.fromCodePoint(code);
    }
    const v = XML_ENTITIES[name];
    if (v === undefined) throw invalid(`Unknown entity &${name}; (entities are not allowed in TBX imports).`);
    return v;
  });
  return text
    .replace(/\u0000(\d+)\u0000/gu, (_, n: string) => cdata[Number(n)])
    .replace(/\s+/gu, ' ')
    .trim();
}

const langOf = (attrs: string): string =>
  (/\bxml:lang\s*=\s*["']([^"']+)["']/iu.exec(attrs)?.[1] ?? /\blang\s*=\s*["']([^"']+)["']/iu.exec(attrs)?.[1] ?? '').toLowerCase();
const sameLang = (a: string, b: string): boolean => a === b || a.split(/[-_]/u)[0] === b.split(/[-_]/u)[0];

/**
 * TBX (TBX-Basic / TBX v3 `conceptEntry` or older `termEntry`): each entry's term in the source language and the
 * one in the target language (matched by xml:lang, region-tolerant; else the entry's first and second language),
 * its `note` / `descrip` as the note. Read without a DTD: a DOCTYPE, an entity declaration or any entity other
 * than the five predefined ones is refused (no entity expansion), and the size is limited by the caller.
 */
export function readTbxGlossary(content: string, langs: { srcLang: string; tgtLang: string }): ImportedTerm[] {
  if (/<!DOCTYPE|<!ENTITY/iu.test(content)) throw invalid('TBX files with a DOCTYPE or entity declarations are not accepted.');
  if (!/<(tbx|martif)\b/iu.test(content)) throw invalid('This is not a TBX file.');
  const entries = content.match(/<(conceptEntry|termEntry)\b[\s\S]*?<\/\1>/giu) ?? [];
  const out: ImportedTerm[] = [];
  entries.forEach((entry, i) => {
    const sets: { lang: string; term: string }[] = [];
    for (const m of entry.matchAll(/<langSec\b([^>]*)>([\s\S]*?)<\/langSec>|<langSet\b([^>]*)>([\s\S]*?)<\/langSet>/giu)) {
      const attrs = m[1] ?? m[3] ?? '';
      const body = m[2] ?? m[4] ?? '';
      const term = /<term\b[^>]*>([\s\S]*?)<\/term>/iu.exec(body)?.[1];
      if (term !== undefined) sets.push({ lang: langOf(attrs), term: decodeXmlText(term) });
    }
    const src = sets.find((s) => sameLang(s.lang, langs.srcLang)) ?? sets[0];
    const tgt = sets.find((s) => s !== src && sameLang(s.lang, langs.tgtLang)) ?? sets.find((s) => s !== src);
    if (!src || !tgt) return; // an entry with a single language has nothing to force
    const noteRaw = /<(note|descrip)\b[^>]*>([\s\S]*?)<\/\1>/iu.exec(entry)?.[2];
    out.push(checkTerm({ term: src.term, translation: tgt.term, note: noteRaw ? decodeXmlText(noteRaw) : '', caseSensitive: false }, `Entry ${i + 1}`));
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
