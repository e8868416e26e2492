/**
 * Maximum lengths (characters) of every input field of the HTTP API — JSON bodies, multipart fields,
 * query strings and path parameters — by field name. The gateway applies this table to every request
 * (one validation step, a 400 naming the field); the zod body schemas and the OpenAPI document use the
 * same numbers. A string field not listed here is limited to `FIELD_MAX_LENGTH_DEFAULT`.
 */
export const FIELD_MAX_LENGTH = {
  // identifiers
  id: 200,
  model_id: 200,
  key_id: 200,
  task_id: 200,
  uid: 200,
  token: 200,
  cursor: 200,
  // language codes
  src_lang: 64,
  tgt_lang: 64,
  // names and addresses
  name: 200,
  fullName: 200,
  displayName: 200,
  email: 254,
  password: 1024,
  // free text
  description: 2_000,
  custom_prompt: 10_000,
  core_memory: 20_000,
  column: 200,
  format: 20,
  limit: 10,
  file_count: 10,
  stream: 10,
  // feedback (corrections and glossary)
  source: 2_000,
  translation: 2_000,
  corrected: 2_000,
  term: 200,
  note: 500,
  case_sensitive: 10,
  glossary_file: 90_000,
  correction_id: 200,
  term_id: 200,
} as const;

export type LimitedField = keyof typeof FIELD_MAX_LENGTH;

/** Any other string field (the text to translate has its own 2,000-character rule on top). */
export const FIELD_MAX_LENGTH_DEFAULT = 10_000;

export const fieldMaxLength = (field: string): number => (FIELD_MAX_LENGTH as Record<string, number>)[field] ?? FIELD_MAX_LENGTH_DEFAULT;

/** The 400 message of a field over its limit. */
export const fieldTooLongMessage = (field: string, length: number, max: number): string =>
  `${field} is too long: ${length.toLocaleString('en-US')} characters (maximum ${max.toLocaleString('en-US')}).`;

/**
 * Cursor-paginated lists (`limit` and `cursor` query parameters, `next_cursor` in the answer, null on the
 * last page): at most this many items a page, and this many when `limit` is omitted (the size lists had).
 */
export const PAGE_SIZE_MAX = 200;
