import { ParseError } from '../errors';
import { PairCollector } from '../pair-collector';
import { ParseOptions, ParseResult } from '../types';
import { isKnownKey, pickKeys } from './keys';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObj = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const CONTAINER_KEYS = ['pairs', 'data', 'sentences', 'examples', 'items', 'records', 'rows', 'entries', 'translations', 'corpus', 'parallel', 'train'];

/** Line and column of a JSON.parse error position. */
export function jsonErrorLocation(text: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /position (\d+)/.exec(msg);
  const lc = /line (\d+) column (\d+)/.exec(msg);
  if (lc) return `line ${lc[1]}, column ${lc[2]}`;
  if (pos) {
    const p = Number(pos[1]);
    const before = text.slice(0, p);
    const line = before.split('\n').length;
    const col = p - before.lastIndexOf('\n');
    return `line ${line}, column ${col}`;
  }
  return 'end of file';
}

/**
 * Adds the pairs of one JSON record (object or [src, tgt] array). Returns false when the record has no
 * recognisable shape.
 */
export function addRecord(c: PairCollector, rec: Json, o: ParseOptions): boolean {
  if (Array.isArray(rec)) {
    if (rec.length >= 2 && isScalar(rec[0]) && isScalar(rec[1])) {
      c.add(rec[0], rec[1]);
      return true;
    }
    if (rec.length === 1 && isScalar(rec[0])) {
      c.add(rec[0], '');
      return true;
    }
    if (rec.length === 0) {
      c.addEmpty();
      return true;
    }
    return false;
  }
  if (!isObj(rec)) return false;
  // Hugging Face / OPUS style: {"translation": {"es": "...", "gn": "..."}}
  if (isObj(rec.translation)) {
    const k = pickKeys(Object.keys(rec.translation), o.srcLang, o.tgtLang);
    if (k) {
      c.add(rec.translation[k.source], rec.translation[k.target]);
      return true;
    }
  }
  const k = pickKeys(Object.keys(rec), o.srcLang, o.tgtLang);
  if (k && (isScalar(rec[k.source]) || isScalar(rec[k.target]))) {
    c.add(isScalar(rec[k.source]) ? rec[k.source] : '', isScalar(rec[k.target]) ? rec[k.target] : '');
    return true;
  }
  return false;
}

function describeExpected(o: ParseOptions): string {
  return `expected [{"source": …, "target": …}], {"src", "tgt"}, keys named by language ("${o.srcLang}", "${o.tgtLang}"), {"pairs": […]} or [[source, target]]`;
}

function addArray(c: PairCollector, arr: Json[], o: ParseOptions): void {
  let bad = 0;
  let firstBad = -1;
  for (let i = 0; i < arr.length; i++) {
    if (!addRecord(c, arr[i], o)) {
      bad++;
      if (firstBad < 0) firstBad = i;
      c.addInvalid();
    }
  }
  if (bad && bad === arr.length) {
    throw new ParseError('MALFORMED', c.filename, `item ${firstBad + 1} has an unknown shape; ${describeExpected(o)}`);
  }
  if (bad) c.warn(`${c.filename}: ${bad} item(s) with an unknown shape skipped (first: item ${firstBad + 1})`);
}

export function parseJsonText(filename: string, text: string, o: ParseOptions): ParseResult {
  let data: Json;
  try {
    data = JSON.parse(text) as Json;
  } catch (e) {
    throw new ParseError('MALFORMED', filename, `invalid JSON at ${jsonErrorLocation(text, e)}`);
  }
  const c = new PairCollector(filename, o.maxPairs);
  let shape = 'json';
  if (Array.isArray(data)) {
    if (data.length === 0) throw new ParseError('NO_PAIRS', filename, 'no sentence pairs found (the JSON array is empty)');
    addArray(c, data, o);
  } else if (isObj(data)) {
    const keys = Object.keys(data);
    const container = CONTAINER_KEYS.map((n) => keys.find((k) => k.toLowerCase() === n && Array.isArray(data[k]))).find(Boolean);
    const arrays = keys.filter((k) => Array.isArray(data[k]));
    const cols = pickKeys(arrays, o.srcLang, o.tgtLang);
    if (container) {
      shape = 'json:container';
      addArray(c, data[container] as Json[], o);
    } else if (cols && arrays.length >= 2) {
      // Parallel columns: {"es": [...], "gn": [...]}
      shape = 'json:columns';
      const a = data[cols.source] as Json[];
      const b = data[cols.target] as Json[];
      if (a.length !== b.length) c.warn(`${filename}: "${cols.source}" has ${a.length} items and "${cols.target}" ${b.length}; extra items are one-sided`);
      for (let i = 0; i < Math.max(a.length, b.length); i++) c.add(isScalar(a[i]) ? a[i] : '', isScalar(b[i]) ? b[i] : '');
    } else if (arrays.length === 1 && keys.length <= 3) {
      shape = 'json:container';
      addArray(c, data[arrays[0]] as Json[], o);
    } else if (addRecord(c, data, o)) {
      shape = 'json:single';
    } else if (keys.length && keys.every((k) => typeof data[k] === 'string') && !keys.some((k) => isKnownKey(k, o.srcLang, o.tgtLang))) {
      // A glossary object: {"hola": "maitei", ...}
      shape = 'json:dictionary';
      for (const k of keys) c.add(k, data[k]);
    } else {
      throw new ParseError('MALFORMED', filename, `unknown JSON shape; ${describeExpected(o)}`);
    }
  } else {
    throw new ParseError('MALFORMED', filename, `unknown JSON shape; ${describeExpected(o)}`);
  }
  return c.finish(shape);
}

export function parseJsonlText(filename: string, text: string, o: ParseOptions): ParseResult {
  const c = new PairCollector(filename, o.maxPairs);
  const lines = text.split(/\r?\n/);
  let bad = 0;
  let firstBad = '';
  lines.forEach((line, i) => {
    if (!line.trim()) {
      if (i < lines.length - 1) c.addEmpty();
      return;
    }
    let rec: Json;
    try {
      rec = JSON.parse(line) as Json;
    } catch (e) {
      bad++;
      if (!firstBad)
        firstBad = `line ${i + 1}: invalid JSON at column ${/column (\d+)/.exec(String(e))?.[1] ?? jsonErrorLocation(line, e).replace(/^line 1, column /, '')}`;
      c.addInvalid();
      return;
    }
    if (!addRecord(c, rec, o)) {
      bad++;
      if (!firstBad) firstBad = `line ${i + 1}: unknown shape`;
      c.addInvalid();
    }
  });
  if (bad && c.pairs.length === 0) throw new ParseError('MALFORMED', filename, `${firstBad}; ${describeExpected(o)}`);
  if (bad) c.warn(`${filename}: ${bad} line(s) skipped (${firstBad})`);
  return c.finish('jsonl');
}
