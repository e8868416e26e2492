export type ParseErrorCode =
  | 'UNSUPPORTED_FILE_TYPE'
  | 'FILE_TOO_LARGE'
  | 'EMPTY_FILE'
  | 'BAD_ENCODING'
  | 'MALFORMED'
  | 'NO_PAIRS'
  | 'TOO_MANY_PAIRS'
  | 'MISSING_COMPANION'
  | 'NEEDS_VISION'
  | 'ARCHIVE_LIMIT'
  | 'PDF_UNREADABLE';

const STATUS: Record<ParseErrorCode, number> = {
  UNSUPPORTED_FILE_TYPE: 415,
  FILE_TOO_LARGE: 413,
  EMPTY_FILE: 400,
  BAD_ENCODING: 400,
  MALFORMED: 400,
  NO_PAIRS: 400,
  TOO_MANY_PAIRS: 413,
  MISSING_COMPANION: 400,
  NEEDS_VISION: 422,
  ARCHIVE_LIMIT: 413,
  PDF_UNREADABLE: 400,
};

/**
 * A file could not be turned into sentence pairs. `message` is user-facing and always starts with
 * the file name (`'{filename}: …'`), so a list of errors can be shown as is.
 */
export class ParseError extends Error {
  readonly status: number;
  constructor(
    readonly code: ParseErrorCode,
    readonly filename: string,
    detail: string,
  ) {
    super(`${filename}: ${detail}`);
    this.name = 'ParseError';
    this.status = STATUS[code];
  }
}

export function isParseError(e: unknown): e is ParseError {
  return e instanceof ParseError;
}

export const unsupported = (filename: string) => new ParseError('UNSUPPORTED_FILE_TYPE', filename, 'Unsupported file type');
