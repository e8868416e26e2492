import { gunzipGuarded, unzipGuarded } from './archive/archive';
import { detectFileKind, extensionOf } from './detect-file-kind';
import { isParseError, ParseError, unsupported } from './errors';
import { parseDelimitedText } from './formats/delimited.parser';
import { parseJsonlText, parseJsonText } from './formats/json.parser';
import { missingCompanion, mosesSide, pairMosesFiles, parseMosesTexts } from './formats/moses.parser';
import { parsePdfBytes, visionNeeded } from './formats/pdf.parser';
import { parseTmxText } from './formats/tmx.parser';
import { parseTxtText } from './formats/txt.parser';
import { MAX_FILE_BYTES, MAX_PAIRS_PER_AGENT } from './limits';
import { PairCollector } from './pair-collector';
import { decodeText } from './text/decode';
import { FileInput, ParseFileInput, ParseOptions, ParseResult } from './types';

const IMAGE_MIME: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function checkSize(f: FileInput): void {
  if (f.bytes.length > MAX_FILE_BYTES) {
    throw new ParseError('FILE_TOO_LARGE', f.filename, `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  }
}

/**
 * Turns one uploaded file into normalised, de-duplicated sentence pairs. Throws `ParseError` with a
 * user-facing `'{filename}: …'` message when the file cannot be used.
 */
export async function parseFile(input: ParseFileInput): Promise<ParseResult> {
  const o: ParseOptions = { srcLang: input.srcLang, tgtLang: input.tgtLang, vision: input.vision, maxPairs: input.maxPairs };
  const { filename, bytes } = input;
  checkSize(input);
  const kind = detectFileKind(filename, bytes);
  if (kind.kind === 'empty') throw new ParseError('EMPTY_FILE', filename, 'the file is empty');

  // Moses halves are plain text named by language (x.es / x.gn).
  if (mosesSide(filename, o.srcLang, o.tgtLang) && ['txt', 'tsv', 'csv', 'json', 'jsonl', 'xml', 'tmx'].includes(kind.kind)) {
    if (!input.companion) throw missingCompanion(filename, o.srcLang, o.tgtLang);
    checkSize(input.companion);
    const side = mosesSide(filename, o.srcLang, o.tgtLang);
    const me = decodeText(filename, bytes).text;
    const other = decodeText(input.companion.filename, input.companion.bytes).text;
    const names = side === 'src' ? { source: filename, target: input.companion.filename } : { source: input.companion.filename, target: filename };
    return parseMosesTexts(names, side === 'src' ? { source: me, target: other } : { source: other, target: me }, o);
  }

  switch (kind.kind) {
    case 'json': {
      const { text } = decodeText(filename, bytes);
      try {
        return parseJsonText(filename, text, o);
      } catch (e) {
        // JSON Lines saved as .json
        if (isParseError(e) && e.code === 'MALFORMED' && /invalid JSON/.test(e.message) && text.trim().split(/\r?\n/).length > 1) {
          try {
            return parseJsonlText(filename, text, o);
          } catch {
            throw e;
          }
        }
        throw e;
      }
    }
    case 'jsonl':
      return parseJsonlText(filename, decodeText(filename, bytes).text, o);
    case 'tmx':
      return parseTmxText(filename, decodeText(filename, bytes).text, o);
    case 'xml':
      throw new ParseError('UNSUPPORTED_FILE_TYPE', filename, 'Unsupported file type (XML files must be TMX)');
    case 'csv':
    case 'tsv':
      return parseDelimitedText(filename, decodeText(filename, bytes).text, kind.kind, o);
    case 'txt':
      if (kind.extension === 'pdf') {
        throw new ParseError('PDF_UNREADABLE', filename, 'not a valid PDF (the file does not start with %PDF-)');
      }
      if (
        kind.extension &&
        !['txt', 'text', 'tsv', 'csv', 'tab', 'md', 'json', 'jsonl', 'ndjson'].includes(kind.extension) &&
        !/^[a-z]{2,3}$/.test(kind.extension)
      ) {
        throw unsupported(filename);
      }
      return parseTxtText(filename, decodeText(filename, bytes).text, o);
    case 'pdf':
      return parsePdfBytes(filename, bytes, o);
    case 'png':
    case 'jpeg':
    case 'gif':
    case 'webp': {
      if (!o.vision) throw visionNeeded(filename, 'images');
      const c = new PairCollector(filename, o.maxPairs);
      const pairs = await o.vision.extractPairs({ bytes, mime: IMAGE_MIME[kind.kind], srcLang: o.srcLang, tgtLang: o.tgtLang, filename });
      for (const p of pairs) c.add(p.source, p.target);
      return c.finish(`image:${kind.kind}`);
    }
    case 'zip':
      return parseArchive(filename, unzipGuarded(filename, bytes), o);
    case 'gzip': {
      const inner = gunzipGuarded(filename, bytes);
      if (detectFileKind(inner.filename, inner.bytes).kind === 'gzip') throw unsupported(filename);
      return parseFile({ ...o, ...inner });
    }
    case 'binary':
      if (kind.extension === 'pdf') throw new ParseError('PDF_UNREADABLE', filename, 'not a valid PDF (the file does not start with %PDF-)');
      throw unsupported(filename);
    default:
      throw unsupported(filename);
  }
}

/** The outcome of one file of an upload: pairs, or the reason it was not used. */
export type FileOutcome = { ok: true; filename: string; result: ParseResult } | { ok: false; filename: string; error: ParseError };

function toParseError(filename: string, e: unknown): ParseError {
  if (isParseError(e)) return e;
  return new ParseError('MALFORMED', filename, `the file could not be read (${e instanceof Error ? e.message : String(e)})`);
}

/**
 * Parses every file of an upload: Moses halves are paired by stem, each file succeeds or fails on its
 * own (partial success), nothing throws.
 */
export async function parseFiles(files: FileInput[], o: ParseOptions): Promise<FileOutcome[]> {
  const { pairs, orphans, rest } = pairMosesFiles(files, o.srcLang, o.tgtLang);
  const out: FileOutcome[] = [];
  for (const f of files) {
    const moses = pairs.find((p) => p.source === f);
    if (pairs.some((p) => p.target === f)) continue;
    try {
      if (moses)
        out.push({
          ok: true,
          filename: `${moses.source.filename} + ${moses.target.filename}`,
          result: await parseFile({ ...o, ...moses.source, companion: moses.target }),
        });
      else if (orphans.includes(f) || rest.includes(f)) out.push({ ok: true, filename: f.filename, result: await parseFile({ ...o, ...f }) });
    } catch (e) {
      out.push({ ok: false, filename: moses ? `${moses.source.filename} + ${moses.target.filename}` : f.filename, error: toParseError(f.filename, e) });
    }
  }
  return out;
}

async function parseArchive(filename: string, entries: FileInput[], o: ParseOptions): Promise<ParseResult> {
  if (!entries.length) throw new ParseError('NO_PAIRS', filename, 'the archive is empty');
  const outcomes = await parseFiles(
    entries.filter((e) => !['zip', 'gzip'].includes(detectFileKind(e.filename, e.bytes).kind) && extensionOf(e.filename) !== 'zip'),
    o,
  );
  const c = new PairCollector(filename, o.maxPairs ?? MAX_PAIRS_PER_AGENT);
  const skipped = entries.length - outcomes.length;
  for (const r of outcomes) {
    if (!r.ok) {
      c.warn(r.error.message);
      continue;
    }
    for (const p of r.result.pairs) c.add(p.source, p.target);
    c.stats.empty += r.result.stats.empty;
    c.stats.oneSided += r.result.stats.oneSided;
    c.stats.tooLong += r.result.stats.tooLong;
    c.stats.invalid += r.result.stats.invalid;
    c.stats.lines += r.result.stats.lines - r.result.pairs.length;
    c.stats.duplicates += r.result.stats.duplicates;
    for (const w of r.result.warnings) c.warn(w);
  }
  if (skipped > 0 && outcomes.length === 0) throw unsupported(filename);
  if (!outcomes.some((r) => r.ok)) {
    throw new ParseError('NO_PAIRS', filename, `no file of the archive could be read (${outcomes.map((r) => (!r.ok ? r.error.message : '')).join('; ')})`);
  }
  return c.finish('zip');
}
