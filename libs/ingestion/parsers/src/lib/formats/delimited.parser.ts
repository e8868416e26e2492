import { ParseError } from '../errors';
import { PairCollector } from '../pair-collector';
import { ParseOptions, ParseResult } from '../types';
import { pickKeys } from './keys';

/** RFC 4180 records: quoted fields may hold the delimiter, doubled quotes and line breaks. */
export function parseDelimited(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
      i++;
      continue;
    }
    if (ch === delimiter) {
      row.push(field);
      field = '';
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += ch;
    i++;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Picks the delimiter that gives the most rows with the header's column count (quote-aware). */
function guessDelimiter(text: string, hint: 'csv' | 'tsv'): string {
  const sample = text.slice(0, 64 * 1024);
  const cands = hint === 'tsv' ? ['\t', ',', ';', '|'] : [',', ';', '\t', '|'];
  let best = cands[0];
  let bestScore = -1;
  for (const d of cands) {
    const rows = parseDelimited(sample, d).slice(0, 50);
    const cols = rows[0]?.length ?? 0;
    if (cols < 2) continue;
    const score = rows.filter((r) => r.length === cols).length;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

export function parseDelimitedText(filename: string, text: string, kind: 'csv' | 'tsv', o: ParseOptions): ParseResult {
  const delimiter = guessDelimiter(text, kind);
  const rows = parseDelimited(text, delimiter);
  while (rows.length && rows[rows.length - 1].every((f) => !f.trim())) rows.pop();
  if (!rows.length) throw new ParseError('EMPTY_FILE', filename, 'the file is empty');
  const c = new PairCollector(filename, o.maxPairs);
  const header = rows[0].map((h) => h.trim().replace(/^\uFEFF/, ''));
  const keys = pickKeys(header, o.srcLang, o.tgtLang);
  let si: number;
  let ti: number;
  let body: string[][];
  if (keys) {
    si = header.indexOf(keys.source);
    ti = header.indexOf(keys.target);
    body = rows.slice(1);
  } else if (header.length === 2) {
    si = 0;
    ti = 1;
    body = rows;
    c.warn(
      `${filename}: no header naming the columns (e.g. "source${delimiter === '\t' ? '\\t' : delimiter}target" or "${o.srcLang}${delimiter === '\t' ? '\\t' : delimiter}${o.tgtLang}"); column 1 was read as ${o.srcLang} and column 2 as ${o.tgtLang}`,
    );
  } else {
    throw new ParseError(
      'MALFORMED',
      filename,
      `cannot tell which columns hold ${o.srcLang} and ${o.tgtLang}; name them in the header (source,target or ${o.srcLang},${o.tgtLang})`,
    );
  }
  for (const r of body) {
    if (r.every((f) => !f.trim())) {
      c.addEmpty();
      continue;
    }
    c.add(r[si] ?? '', r[ti] ?? '');
  }
  return c.finish(kind);
}
