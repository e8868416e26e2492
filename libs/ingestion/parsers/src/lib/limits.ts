/**
 * Ingestion limits. They are product rules: the gateway, the ingestion service and the documentation
 * page all read them from here so the numbers never drift apart.
 */

import { INGESTION_MAX_FILE_BYTES, INGESTION_MAX_FILES_PER_UPLOAD, INGESTION_MAX_PAIRS_PER_AGENT } from '@gaia/contracts';

/** Largest single uploaded file (25 MiB). Larger files are rejected with HTTP 413. */
export const MAX_FILE_BYTES = INGESTION_MAX_FILE_BYTES;

/** Most files in one upload (process or update-model call). */
export const MAX_FILES_PER_UPLOAD = INGESTION_MAX_FILES_PER_UPLOAD;

/** Most sentence pairs one agent may hold (all uploads together, after de-duplication). */
export const MAX_PAIRS_PER_AGENT = INGESTION_MAX_PAIRS_PER_AGENT;

/** Longest source or target segment, in characters, after normalisation. Longer segments are skipped and counted. */
export const MAX_SEGMENT_CHARS = 5_000;

/** Most PDF pages read from one file. */
export const MAX_PDF_PAGES = 2_000;

/** Decompression guard for compressed input (ZIP, gzip): total bytes produced by one archive. */
export const MAX_DECOMPRESSED_BYTES = 100 * 1024 * 1024;

/** Decompression guard: largest accepted expansion ratio of an archive (output bytes / input bytes). */
export const MAX_DECOMPRESSION_RATIO = 200;

/** Most entries read from one archive. */
export const MAX_ARCHIVE_ENTRIES = MAX_FILES_PER_UPLOAD * 5;

/** Time budget for reading one PDF (text layer), in milliseconds; the reader runs in a worker thread. */
export const PDF_PARSE_TIMEOUT_MS = 60_000;

/** Heap cap of the PDF reader worker, in MiB. */
export const PDF_WORKER_HEAP_MB = 512;

export const INGESTION_LIMITS = {
  maxFileBytes: MAX_FILE_BYTES,
  maxFilesPerUpload: MAX_FILES_PER_UPLOAD,
  maxPairsPerAgent: MAX_PAIRS_PER_AGENT,
  maxSegmentChars: MAX_SEGMENT_CHARS,
  maxPdfPages: MAX_PDF_PAGES,
  maxDecompressedBytes: MAX_DECOMPRESSED_BYTES,
  maxDecompressionRatio: MAX_DECOMPRESSION_RATIO,
  maxArchiveEntries: MAX_ARCHIVE_ENTRIES,
} as const;
