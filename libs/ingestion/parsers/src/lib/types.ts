export interface SentencePair {
  source: string;
  target: string;
}

export interface ParseStats {
  /** Records read (lines, JSON items, translation units, layout rows). */
  lines: number;
  /** Records where both sides were empty. */
  empty: number;
  /** Records with only one side. */
  oneSided: number;
  /** Records dropped because the same (source, target) pair was already seen. */
  duplicates: number;
  /** Records dropped because a side was longer than MAX_SEGMENT_CHARS. */
  tooLong: number;
  /** Records that could not be read (unknown JSON shape, broken JSONL line, TU without both languages). */
  invalid: number;
  /** PDF pages read (PDF only). */
  pages?: number;
  /** Pages without a text layer (PDF only). */
  scannedPages?: number;
}

export interface ParseResult {
  pairs: SentencePair[];
  stats: ParseStats;
  warnings: string[];
  /** The format that was recognised, e.g. 'json', 'tmx', 'pdf:two-columns'. */
  format: string;
}

export interface FileInput {
  filename: string;
  bytes: Uint8Array;
}

/** What a vision extractor reads: one picture of a page, or pages of a PDF. */
export interface VisionInput {
  bytes: Uint8Array;
  /** 'image/png', 'image/jpeg', 'image/webp', 'image/gif' or 'application/pdf' (then `pages` says which). */
  mime: string;
  srcLang: string;
  tgtLang: string;
  filename: string;
  /** 1-based page numbers to read when `mime` is a PDF. */
  pages?: number[];
}

/** Extracts sentence pairs from a picture of a page (scans, photos) with a vision-capable model. */
export interface VisionExtractor {
  extractPairs(input: VisionInput): Promise<SentencePair[]>;
}

export interface ParseOptions {
  srcLang: string;
  tgtLang: string;
  vision?: VisionExtractor;
  /** Stop with TOO_MANY_PAIRS beyond this many pairs (default MAX_PAIRS_PER_AGENT). */
  maxPairs?: number;
}

export interface ParseFileInput extends FileInput, ParseOptions {
  /** The other half of a Moses pair (`x.es` + `x.gn`). */
  companion?: FileInput;
}

export type FileKind =
  'json' | 'jsonl' | 'tmx' | 'xml' | 'csv' | 'tsv' | 'txt' | 'pdf' | 'png' | 'jpeg' | 'gif' | 'webp' | 'zip' | 'gzip' | 'office' | 'binary' | 'empty';

export interface DetectedKind {
  kind: FileKind;
  /** Text encoding when the file is text. */
  encoding?: 'utf-8' | 'utf-16le' | 'utf-16be';
  /** Lower-cased extension without the dot ('' when none). */
  extension: string;
  /** True when the content contradicts the extension (e.g. JSON saved as .pdf). */
  renamed: boolean;
}
