import { ParseError } from '../errors';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** BOM-detected encoding, or a guess for BOM-less UTF-16 (many NUL bytes on one parity). */
export function sniffEncoding(bytes: Uint8Array): { encoding: TextEncoding; bomLength: number } | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n >= 4) {
    let evenZero = 0;
    let oddZero = 0;
    for (let i = 0; i < n; i += 2) {
      if (bytes[i] === 0) evenZero++;
      if (bytes[i + 1] === 0) oddZero++;
    }
    const half = n / 2;
    if (oddZero > half * 0.4 && evenZero < half * 0.05) return { encoding: 'utf-16le', bomLength: 0 };
    if (evenZero > half * 0.4 && oddZero < half * 0.05) return { encoding: 'utf-16be', bomLength: 0 };
  }
  return null;
}

/** Quick binary check: NUL bytes or many control characters in the first 8 KiB of a non-UTF-16 file. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  if (n === 0) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    if (b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f) control++;
  }
  return control / n > 0.05;
}

/**
 * Decodes text as UTF-8 or UTF-16 (by BOM or NUL pattern). Anything else is rejected with a clear
 * message: we never guess a legacy code page, because a wrong guess silently corrupts the corpus.
 */
export function decodeText(filename: string, bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  const sniffed = sniffEncoding(bytes);
  if (sniffed && sniffed.encoding !== 'utf-8') {
    try {
      const text = new TextDecoder(sniffed.encoding, { fatal: true }).decode(bytes.subarray(sniffed.bomLength));
      return { text, encoding: sniffed.encoding };
    } catch {
      throw new ParseError('BAD_ENCODING', filename, `the file looks like ${sniffed.encoding.toUpperCase()} but is not valid; save it as UTF-8`);
    }
  }
  const body = sniffed ? bytes.subarray(sniffed.bomLength) : bytes;
  if (looksBinary(body)) throw new ParseError('UNSUPPORTED_FILE_TYPE', filename, 'Unsupported file type');
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), encoding: 'utf-8' };
  } catch {
    const offset = firstInvalidUtf8(body);
    throw new ParseError('BAD_ENCODING', filename, `the text is not valid UTF-8 (first bad byte at offset ${offset}); save the file as UTF-8 or UTF-16`);
  }
}

function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let need = 0;
    if (c < 0x80) need = 0;
    else if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) need = 2;
    else if (c >= 0xf0 && c <= 0xf4) need = 3;
    else return i;
    for (let k = 1; k <= need; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return i;
    i += need + 1;
  }
  return b.length;
}
