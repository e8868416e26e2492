import { Gunzip, Unzip, UnzipInflate } from 'fflate';
import { ParseError } from '../errors';
import { MAX_ARCHIVE_ENTRIES, MAX_DECOMPRESSED_BYTES, MAX_DECOMPRESSION_RATIO } from '../limits';
import { FileInput } from '../types';

const CHUNK = 16 * 1024;

function budget(inputBytes: number): number {
  return Math.min(MAX_DECOMPRESSED_BYTES, Math.max(inputBytes * MAX_DECOMPRESSION_RATIO, 1024 * 1024));
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function bomb(filename: string, limit: number): ParseError {
  return new ParseError(
    'ARCHIVE_LIMIT',
    filename,
    `the archive expands to more than ${Math.round(limit / 1024 / 1024)} MiB (limits: ${MAX_DECOMPRESSED_BYTES / 1024 / 1024} MiB, ratio ${MAX_DECOMPRESSION_RATIO}:1); upload the files uncompressed`,
  );
}

/**
 * Reads a ZIP archive with a decompression guard: the output is counted while it is produced and the
 * read stops as soon as it exceeds the budget (declared sizes in headers are not trusted).
 * Directories, macOS metadata and nested archives' contents are not expanded.
 */
export function unzipGuarded(filename: string, bytes: Uint8Array): FileInput[] {
  const limit = budget(bytes.length);
  let total = 0;
  const entries: Array<{ name: string; chunks: Uint8Array[]; size: number }> = [];
  const uz = new Unzip((file) => {
    const name = file.name;
    if (name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\.[^/]*$/.test(name)) return;
    if (entries.length >= MAX_ARCHIVE_ENTRIES) {
      throw new ParseError('ARCHIVE_LIMIT', filename, `the archive has more than ${MAX_ARCHIVE_ENTRIES} files`);
    }
    if (file.compression !== 0 && file.compression !== 8) {
      throw new ParseError('MALFORMED', filename, `"${name}" uses an unsupported ZIP compression method (${file.compression})`);
    }
    const rec = { name, chunks: [] as Uint8Array[], size: 0 };
    entries.push(rec);
    file.ondata = (err, chunk) => {
      if (err) throw err;
      total += chunk.length;
      if (total > limit) throw bomb(filename, limit);
      rec.chunks.push(chunk);
      rec.size += chunk.length;
    };
    file.start();
  });
  uz.register(UnzipInflate);
  feed(uz, bytes, filename, 'the ZIP archive');
  return entries.map((e) => ({ filename: `${filename}/${e.name}`, bytes: concat(e.chunks, e.size) }));
}

/** Pushes `bytes` into a decompressor in CHUNK pieces; its own failure is a MALFORMED `what` (a guard's ParseError passes). */
function feed(stream: { push(chunk: Uint8Array, final: boolean): void }, bytes: Uint8Array, filename: string, what: string): void {
  try {
    for (let i = 0; i < bytes.length; i += CHUNK) stream.push(bytes.subarray(i, i + CHUNK), i + CHUNK >= bytes.length);
  } catch (e) {
    if (e instanceof ParseError) throw e;
    throw new ParseError('MALFORMED', filename, `${what} is damaged (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Reads a gzip file with the same decompression guard. */
export function gunzipGuarded(filename: string, bytes: Uint8Array): FileInput {
  const limit = budget(bytes.length);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const gz = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > limit) throw bomb(filename, limit);
    chunks.push(chunk);
  });
  feed(gz, bytes, filename, 'the gzip file');
  const inner = filename.replace(/\.t?gz$/i, '') || filename;
  return { filename: inner, bytes: concat(chunks, total) };
}
