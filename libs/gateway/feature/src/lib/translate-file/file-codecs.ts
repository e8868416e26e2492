import { TRANSLATE_FILE_FORMATS, type TranslateFileFormat } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';

/**
 * Translatable files, read into segments and written back in the same format with the targets filled.
 * Pure (no I/O). TXT: every non-blank line. CSV/TSV: the first row is a header; `column` (name or 0-based
 * index, default the first) is translated into the column named after the target language (filled when
 * present, appended otherwise). TMX: each `<tu>`'s source-language `<tuv>` gets a target `<tuv>`.
 * XLIFF 1.2 (`<trans-unit>`) and 2.0 (`<segment>`): each `<source>` gets its `<target>`.
 */
export interface ParsedFile {
  format: TranslateFileFormat;
  segments: string[];
  /** The file with translation i in place of segment i (null: left as it was — untranslated target empty). */
  render(translations: ReadonlyArray<string | null>): string;
}

export interface ParseOptions {
  srcLang: string;
  tgtLang: string;
  column?: string;
}

const EXTENSIONS: Record<string, TranslateFileFormat> = {
  txt: 'txt',
  text: 'txt',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  tmx: 'tmx',
  xlf: 'xliff',
  xliff: 'xliff',
  xlif: 'xliff',
};

export function formatOf(fileName: string, declared?: string): TranslateFileFormat {
  if (declared) {
    if ((TRANSLATE_FILE_FORMATS as readonly string[]).includes(declared)) return declared as TranslateFileFormat;
    throw DomainError.invalid(`Unsupported format: ${declared}. Use one of ${TRANSLATE_FILE_FORMATS.join(', ')}.`, 'unsupported_format');
  }
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  const f = EXTENSIONS[ext];
  if (!f) throw DomainError.invalid(`${fileName}: Unsupported file type. Translate TXT, CSV, TSV, TMX or XLIFF files.`, 'unsupported_format');
  return f;
}

export function parseFile(format: TranslateFileFormat, text: string, o: ParseOptions): ParsedFile {
  const body = text.replace(/^\uFEFF/, '');
  switch (format) {
    case 'txt':
      return parseTxt(body);
    case 'csv':
      return parseDelimited(body, ',', o);
    case 'tsv':
      return parseDelimited(body, '\t', o);
    case 'tmx':
      return parseTmx(body, o);
    case 'xliff':
      return parseXliff(body);
  }
}

function parseTxt(text: string): ParsedFile {
  const lines = text.split(/(\r?\n)/);
  // lines alternates content, separator, content, …
  const at: number[] = [];
  for (let i = 0; i < lines.length; i += 2) if (lines[i].trim()) at.push(i);
  return {
    format: 'txt',
    segments: at.map((i) => lines[i].trim()),
    render: (tr) => {
      const out = [...lines];
      at.forEach((i, k) => {
        if (tr[k] !== null && tr[k] !== undefined) out[i] = tr[k] as string;
      });
      return out.join('');
    },
  };
}

/** RFC 4180 rows (quoted fields, doubled quotes, separators and newlines inside quotes). */
export function readDelimited(text: string, sep: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function writeDelimited(rows: string[][], sep: string, eol: string): string {
  const cell = (v: string) => (v.includes(sep) || v.includes('"') || v.includes('\n') || v.includes('\r') ? `"${v.replace(/"/g, '""')}"` : v);
  return rows.map((r) => r.map(cell).join(sep)).join(eol) + eol;
}

function parseDelimited(text: string, sep: string, o: ParseOptions): ParsedFile {
  const rows = readDelimited(text, sep);
  if (rows.length === 0) throw DomainError.invalid('The file is empty.', 'empty_file');
  const header = rows[0];
  const wanted = o.column?.trim();
  let src = 0;
  if (wanted) {
    src = /^\d+$/.test(wanted) ? Number(wanted) : header.findIndex((h) => h.trim() === wanted);
    if (src < 0 || src >= header.length) throw DomainError.invalid(`Column not found: ${wanted}. The header has: ${header.join(', ')}.`, 'column_not_found');
  }
  let tgt = header.findIndex((h, i) => i !== src && h.trim().toLowerCase() === o.tgtLang.trim().toLowerCase());
  const appended = tgt < 0;
  if (appended) tgt = header.length;
  const dataRows = rows
    .slice(1)
    .map((r, i) => ({ r, i: i + 1 }))
    .filter(({ r }) => (r[src] ?? '').trim());
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return {
    format: sep === ',' ? 'csv' : 'tsv',
    segments: dataRows.map(({ r }) => r[src].trim()),
    render: (tr) => {
      const out = rows.map((r) => [...r]);
      if (appended) out[0][tgt] = o.tgtLang.trim();
      for (const r of out) while (r.length <= tgt) r.push('');
      dataRows.forEach(({ i }, k) => {
        out[i][tgt] = tr[k] ?? out[i][tgt] ?? '';
      });
      return writeDelimited(out, sep, eol);
    },
  };
}

const decode = (s: string) =>
  s
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&amp;/g, '&');
const encode = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const langOf = (attrs: string) => /(?:xml:)?lang\s*=\s*["']([^"']+)["']/i.exec(attrs)?.[1]?.toLowerCase() ?? '';
const sameLang = (a: string, b: string) => a === b.toLowerCase() || a.split(/[-_]/)[0] === b.toLowerCase().split(/[-_]/)[0];

/** One translatable unit of an XML file: its span in the text, its source and how to write its target. */
interface Unit {
  start: number;
  end: number;
  source: string;
  rewrite: (translation: string) => string;
}

function renderUnits(text: string, units: Unit[], format: TranslateFileFormat): ParsedFile {
  return {
    format,
    segments: units.map((u) => u.source),
    render: (tr) => {
      let out = '';
      let pos = 0;
      units.forEach((u, k) => {
        out += text.slice(pos, u.start) + (tr[k] !== null && tr[k] !== undefined ? u.rewrite(tr[k] as string) : text.slice(u.start, u.end));
        pos = u.end;
      });
      return out + text.slice(pos);
    },
  };
}

function parseTmx(text: string, o: ParseOptions): ParsedFile {
  if (!/<tmx[\s>]/i.test(text)) throw DomainError.invalid('Not a TMX file (no <tmx> element).', 'invalid_file');
  const units: Unit[] = [];
  for (const m of text.matchAll(/<tu(\s[^>]*)?>([\s\S]*?)<\/tu>/g)) {
    const inner = m[2];
    const tuvs = [...inner.matchAll(/<tuv(\s[^>]*)>([\s\S]*?)<\/tuv>/g)];
    const src = tuvs.find((t) => sameLang(langOf(t[1]), o.srcLang)) ?? tuvs[0];
    if (!src) continue;
    const seg = /<seg>([\s\S]*?)<\/seg>/.exec(src[2]);
    if (!seg || !decode(seg[1]).trim()) continue;
    const tgt = tuvs.find((t) => t !== src && sameLang(langOf(t[1]), o.tgtLang));
    const start = m.index;
    const whole = m[0];
    // The whitespace before the source <tuv> (its line break and indentation), reused for the new one.
    const lead = /(\s*)$/.exec(inner.slice(0, src.index))?.[1] ?? '';
    units.push({
      start,
      end: start + whole.length,
      source: decode(seg[1]).trim(),
      rewrite: (tr) => {
        const tuv = `<tuv xml:lang="${o.tgtLang.trim()}"><seg>${encode(tr)}</seg></tuv>`;
        if (tgt) return whole.replace(tgt[0], tuv);
        const after = whole.lastIndexOf('</tuv>') + '</tuv>'.length;
        return `${whole.slice(0, after)}${lead}${tuv}${whole.slice(after)}`;
      },
    });
  }
  return renderUnits(text, units, 'tmx');
}

function parseXliff(text: string): ParsedFile {
  const version = /<xliff[^>]*\sversion\s*=\s*["'](\d)/i.exec(text)?.[1];
  if (!version) throw DomainError.invalid('Not an XLIFF file (no <xliff version="…"> element).', 'invalid_file');
  const unitRe = version === '2' ? /<segment(\s[^>]*)?>([\s\S]*?)<\/segment>/g : /<trans-unit(\s[^>]*)?>([\s\S]*?)<\/trans-unit>/g;
  const units: Unit[] = [];
  for (const m of text.matchAll(unitRe)) {
    const whole = m[0];
    const source = /<source(\s[^>]*)?>([\s\S]*?)<\/source>/.exec(whole);
    if (!source || !decode(source[2]).trim()) continue;
    const target = /<target(\s[^>]*)?(?:\/>|>([\s\S]*?)<\/target>)/.exec(whole);
    units.push({
      start: m.index,
      end: m.index + whole.length,
      source: decode(source[2]).trim(),
      rewrite: (tr) => {
        if (target) return whole.replace(target[0], `<target${target[1] ?? ''}>${encode(tr)}</target>`);
        const after = source.index + source[0].length;
        return `${whole.slice(0, after)}<target>${encode(tr)}</target>${whole.slice(after)}`;
      },
    });
  }
  return renderUnits(text, units, 'xliff');
}
