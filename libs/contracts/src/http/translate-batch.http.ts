import { z } from 'zod';
import { TRANSLATION_MAX_CHARS, translationEventSchema } from '../rpc/translation.rpc';

/** Texts in one POST /api/translate/batch (each within the 50-word / 2,000-character limits of one translation). */
export const TRANSLATE_BATCH_MAX_TEXTS = 100;
/** Hard cap of one item before its own validation (an item over 2,000 characters is a per-item 400, not a refused batch). */
export const TRANSLATE_BATCH_ITEM_HARD_MAX_CHARS = TRANSLATION_MAX_CHARS * 4;
const ID_MAX = 200;
export const TRANSLATE_BATCH_PATH = '/api/translate/batch';
/** Bytes of one character at most in a JSON string (a \uXXXX escape). */
const MAX_JSON_BYTES_PER_CHAR = 6;
/** The rest of a batch body (ids, languages, flags, punctuation). */
const BATCH_ENVELOPE_BYTES = 16 * 1024;
/** The JSON body of the largest batch the limits allow: 100 texts of 2,000 characters, each escaped at worst. */
export const TRANSLATE_BATCH_MAX_BODY_BYTES = TRANSLATE_BATCH_MAX_TEXTS * TRANSLATION_MAX_CHARS * MAX_JSON_BYTES_PER_CHAR + BATCH_ENVELOPE_BYTES;

/** POST /api/translate/batch body. `stream` (default true, like /api/translate) answers SSE tagged with the item index. */
export const translateBatchBodySchema = z.object({
  texts: z.array(z.string().max(TRANSLATE_BATCH_ITEM_HARD_MAX_CHARS)).min(1).max(TRANSLATE_BATCH_MAX_TEXTS),
  model_id: z.string().max(ID_MAX),
  src_lang: z.string().max(ID_MAX),
  tgt_lang: z.string().max(ID_MAX),
  stream: z.boolean().default(true),
});
export type TranslateBatchHttpBody = z.input<typeof translateBatchBodySchema>;

/** The answer for one text: its translation, or why it failed (the other texts are unaffected). */
export const translateBatchItemResultSchema = z.discriminatedUnion('ok', [
  z.object({ index: z.number().int(), ok: z.literal(true), translation: z.string(), raw_translation: z.string(), response_time: z.number() }),
  z.object({ index: z.number().int(), ok: z.literal(false), status: z.number().int(), error: z.string() }),
]);
export type TranslateBatchItemResult = z.infer<typeof translateBatchItemResultSchema>;

/** JSON answer (stream false): one result per text, in the order of `texts`. */
export const translateBatchJsonResponseSchema = z.object({
  success: z.literal(true),
  results: z.array(translateBatchItemResultSchema),
  succeeded: z.number().int(),
  failed: z.number().int(),
  source_language: z.string(),
  target_language: z.string(),
  /** Seconds for the whole batch. */
  response_time: z.number(),
});
export type TranslateBatchJsonResponse = z.infer<typeof translateBatchJsonResponseSchema>;

/** The last event of a streamed batch. */
export const batchCompleteEventSchema = z.object({
  type: z.literal('batch_complete'),
  succeeded: z.number().int(),
  failed: z.number().int(),
  response_time: z.number(),
});

/**
 * SSE events of a streamed batch (`data: {json}` lines): every translation event of text `index`
 * (status, translation_chunk, translation_complete, error) tagged with it, then one `batch_complete`.
 */
export const translateBatchEventSchema = z.union([z.intersection(translationEventSchema, z.object({ index: z.number().int() })), batchCompleteEventSchema]);
export type TranslateBatchEvent = z.infer<typeof translateBatchEventSchema>;
