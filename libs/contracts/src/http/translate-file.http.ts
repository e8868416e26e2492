import { z } from 'zod';

/** File formats that POST /api/translate/file translates into the same format with the targets filled. */
export const TRANSLATE_FILE_FORMATS = ['txt', 'csv', 'tsv', 'tmx', 'xliff'] as const;
export type TranslateFileFormat = (typeof TRANSLATE_FILE_FORMATS)[number];
/** Largest file accepted for translation. */
export const TRANSLATE_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** Segments (lines, rows, units) in one file. */
export const TRANSLATE_FILE_MAX_SEGMENTS = 5000;

/** Multipart fields of POST /api/translate/file (besides `file`). `column`: CSV/TSV column to translate (name or 0-based index; default the first). */
export const translateFileFieldsSchema = z.object({
  model_id: z.string().min(1).max(200),
  src_lang: z.string().min(1).max(200),
  tgt_lang: z.string().min(1).max(200),
  column: z.string().max(200).optional(),
  /** Overrides the format guessed from the file name. */
  format: z.enum(TRANSLATE_FILE_FORMATS).optional(),
});
export type TranslateFileFields = z.input<typeof translateFileFieldsSchema>;

export const translateFileStatusSchema = z.enum(['PROCESSING', 'COMPLETED', 'FAILED']);

/** A file translation task (GET /api/translate/file/status, Socket.IO `translate_file_progress`). */
export const translateFileTaskDtoSchema = z.object({
  id: z.string(),
  status: translateFileStatusSchema,
  /** 0..100 */
  progress: z.number().int(),
  message: z.string(),
  format: z.enum(TRANSLATE_FILE_FORMATS),
  file_name: z.string(),
  model_id: z.string(),
  total_segments: z.number().int(),
  translated_segments: z.number().int(),
  failed_segments: z.number().int(),
  created_at: z.string().meta({ format: 'date-time' }),
});
export type TranslateFileTaskDto = z.infer<typeof translateFileTaskDtoSchema>;

/** GET /api/translate/file/status answer. */
export const translateFileTaskResponseSchema = z.object({ task: translateFileTaskDtoSchema });

/** POST /api/translate/file answer: the task and how many segments it translates. */
export const translateFileStartResponseSchema = z.object({ task_id: z.string(), total_segments: z.number().int() });
export type TranslateFileStartResponse = z.infer<typeof translateFileStartResponseSchema>;
