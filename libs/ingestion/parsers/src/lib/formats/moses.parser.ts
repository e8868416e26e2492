import { ParseError } from '../errors';
import { sameLanguage } from '../lang/languages';
import { PairCollector } from '../pair-collector';
import { splitLines } from '../text/normalize';
import { FileInput, ParseOptions, ParseResult } from '../types';
import { extensionOf } from '../detect-file-kind';

/** The stem of a Moses file: 'corpus.es' → 'corpus', 'train.es-gn.gn' → 'train.es-gn'. */
export function mosesStem(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  const i = base.lastIndexOf('.');
  return i > 0 ? filename.slice(0, filename.length - (base.length - i)) : filename;
}

/** 'src' | 'tgt' when the file extension names one of the agent languages (x.es, x.gn, x.spa…). */
export function mosesSide(filename: string, srcLang: string, tgtLang: string): 'src' | 'tgt' | null {
  const ext = extensionOf(filename);
  if (!ext) return null;
  if (sameLanguage(ext, srcLang)) return 'src';
  if (sameLanguage(ext, tgtLang)) return 'tgt';
  return null;
}

export interface MosesPairing<T extends FileInput> {
  pairs: Array<{ source: T; target: T }>;
  /** Moses-looking files whose other half is missing. */
  orphans: T[];
  /** Everything else, untouched. */
  rest: T[];
}

/** Groups `x.es` + `x.gn` files by stem. */
export function pairMosesFiles<T extends FileInput>(files: T[], srcLang: string, tgtLang: string): MosesPairing<T> {
  const bySide = new Map<string, { src?: T; tgt?: T }>();
  const rest: T[] = [];
  for (const f of files) {
    const side = mosesSide(f.filename, srcLang, tgtLang);
    if (!side) {
      rest.push(f);
      continue;
    }
    const stem = mosesStem(f.filename);
    const e = bySide.get(stem) ?? {};
    if (e[side]) rest.push(f);
    else e[side] = f;
    bySide.set(stem, e);
  }
  const pairs: Array<{ source: T; target: T }> = [];
  const orphans: T[] = [];
  for (const e of bySide.values()) {
    if (e.src && e.tgt) pairs.push({ source: e.src, target: e.tgt });
    else orphans.push((e.src ?? e.tgt) as T);
  }
  return { pairs, orphans, rest };
}

export function parseMosesTexts(names: { source: string; target: string }, texts: { source: string; target: string }, o: ParseOptions): ParseResult {
  const trim = (t: string) => {
    const l = splitLines(t);
    if (l.length && l[l.length - 1] === '') l.pop();
    return l;
  };
  const a = trim(texts.source);
  const b = trim(texts.target);
  const label = `${names.source} + ${names.target}`;
  if (!a.length && !b.length) throw new ParseError('EMPTY_FILE', label, 'both files are empty');
  const c = new PairCollector(names.source, o.maxPairs);
  if (a.length !== b.length) {
    c.warn(`${label}: the files have ${a.length} and ${b.length} lines; Moses files must be line-aligned, extra lines are one-sided`);
  }
  for (let i = 0; i < Math.max(a.length, b.length); i++) c.add(a[i] ?? '', b[i] ?? '');
  return c.finish('moses');
}

export function missingCompanion(filename: string, srcLang: string, tgtLang: string): ParseError {
  const side = mosesSide(filename, srcLang, tgtLang);
  const other = side === 'src' ? tgtLang : srcLang;
  return new ParseError('MISSING_COMPANION', filename, `a Moses file needs its other half (${mosesStem(filename)}.${other}) in the same upload`);
}
