// Invisible characters that only get in the way of matching (BOM, zero-width space, word joiner, soft hyphen).
const INVISIBLE = /[\u200B\u2060\uFEFF\u00AD]/g;
// C0/C1 control characters except tab/newline (handled as whitespace).
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const ASCII_NORMAL = /^(?:[\x21-\x7e]+ )*[\x21-\x7e]+$/;
const WHITESPACE = /[\s\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/g;

/** NFC, invisible/control characters removed, whitespace collapsed to single spaces, trimmed. */
export function normalizeSegment(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  if (!s) return '';
  // Fast path: printable ASCII words separated by single spaces is already normal.
  if (ASCII_NORMAL.test(s)) return s;
  s = s.normalize('NFC').replace(INVISIBLE, '').replace(CONTROL, ' ').replace(WHITESPACE, ' ').trim();
  return s;
}

/** Splits text into lines (\n, \r\n, \r, U+2028/2029). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\n|\r|\u2028|\u2029/);
}
