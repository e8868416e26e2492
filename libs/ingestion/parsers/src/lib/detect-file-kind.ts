import { looksBinary, sniffEncoding } from './text/decode';
import { DetectedKind, FileKind } from './types';

const EXT_KIND: Record<string, FileKind> = {
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  tmx: 'tmx',
  xml: 'xml',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  txt: 'txt',
  text: 'txt',
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  gif: 'gif',
  webp: 'webp',
  zip: 'zip',
  gz: 'gzip',
};

export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  const i = base.lastIndexOf('.');
  return i > 0 ? base.slice(i + 1).toLowerCase() : '';
}

function startsWith(bytes: Uint8Array, sig: number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

function ascii(bytes: Uint8Array, n: number): string {
  let s = '';
  for (let i = 0; i < Math.min(n, bytes.length); i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/** Looks inside a ZIP's central directory names for office documents (docx, xlsx, odt…). */
function isOfficeZip(bytes: Uint8Array): boolean {
  const head = ascii(bytes, 4096);
  return head.includes('[Content_Types].xml') || head.includes('mimetypeapplication/vnd.oasis') || head.includes('word/') || head.includes('xl/');
}

function sniffText(text: string): FileKind {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (!t) return 'empty';
  if (t.startsWith('<')) return /<tmx[\s>]/i.test(t.slice(0, 4000)) ? 'tmx' : 'xml';
  if (t.startsWith('[')) return 'json';
  if (t.startsWith('{')) {
    const lines = t.split(/\r?\n/).filter((l) => l.trim());
    if (lines.length > 1 && lines.slice(0, 5).every((l) => /^\s*\{.*\}\s*$/.test(l))) return 'jsonl';
    return 'json';
  }
  const first = t.split(/\r?\n/, 1)[0];
  const lines = t.split(/\r?\n/, 50).filter((l) => l.trim());
  if (lines.length > 1 && lines.every((l) => l.includes('\t'))) return 'tsv';
  if (lines.length > 1 && /^[^,]{1,40},[^,]{1,40}$/.test(first.trim()) && lines.every((l) => l.includes(','))) return 'csv';
  return 'txt';
}

/**
 * Classifies a file by its content first (magic bytes, BOMs, JSON/XML sniffing) and only then by its
 * extension, so a renamed file is read for what it is.
 */
export function detectFileKind(filename: string, bytes: Uint8Array): DetectedKind {
  const extension = extensionOf(filename);
  const byExt = EXT_KIND[extension];
  const done = (kind: FileKind, encoding?: DetectedKind['encoding']): DetectedKind => ({
    kind,
    encoding,
    extension,
    renamed: !!byExt && byExt !== kind && !(byExt === 'xml' && kind === 'tmx') && !(byExt === 'txt' && (kind === 'tsv' || kind === 'csv')) && kind !== 'empty',
  });
  if (bytes.length === 0) return done('empty');
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return done('pdf'); // %PDF-
  // Some producers put junk before the header; PDF readers accept it within the first KiB.
  if (ascii(bytes, 1024).includes('%PDF-')) return done('pdf');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return done('png');
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return done('jpeg');
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return done('gif');
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return done('webp');
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return done(isOfficeZip(bytes) ? 'office' : 'zip');
  if (startsWith(bytes, [0x1f, 0x8b])) return done('gzip');
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) return done('office'); // legacy .doc/.xls

  const enc = sniffEncoding(bytes);
  let text: string;
  if (enc && enc.encoding !== 'utf-8') {
    text = new TextDecoder(enc.encoding).decode(bytes.subarray(enc.bomLength, Math.min(bytes.length, 65536)));
  } else {
    const body = enc ? bytes.subarray(enc.bomLength) : bytes;
    if (looksBinary(body)) return done('binary');
    text = new TextDecoder('utf-8').decode(body.subarray(0, 65536));
  }
  const encoding = enc?.encoding ?? 'utf-8';
  let kind = sniffText(text);
  if (kind === 'empty') return done('empty', encoding);
  // Plain text keeps a more specific extension (csv/tsv/jsonl) when the sniffing is not conclusive.
  if (kind === 'txt' && byExt && ['csv', 'tsv', 'txt'].includes(byExt)) kind = byExt;
  if (kind === 'json' && byExt === 'jsonl') kind = 'jsonl';
  if (kind === 'txt' && (byExt === 'json' || byExt === 'jsonl')) kind = byExt;
  if ((kind === 'tsv' || kind === 'csv') && byExt === 'txt') kind = 'txt';
  return done(kind, encoding);
}
