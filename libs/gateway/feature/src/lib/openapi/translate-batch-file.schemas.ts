import type { SchemaObject } from '@nestjs/swagger';
import {
  translateBatchBodySchema,
  translateBatchEventSchema,
  translateBatchJsonResponseSchema,
  translateFileFieldsSchema,
  translateFileStartResponseSchema,
  translateFileTaskResponseSchema,
} from '@gaia/contracts';
import { fromZod } from './schemas';

/** OpenAPI 3.0 schemas of batch and file translation, generated from the contract zod schemas (the file upload form adds its file). */
export const SB = {
  translateBatchBody: fromZod(translateBatchBodySchema, 'input'),
  translateBatchJson: fromZod(translateBatchJsonResponseSchema),
  translateBatchEvent: {
    ...fromZod(translateBatchEventSchema),
    description:
      'A translation event of text `index` (status, translation_chunk, translation_complete, error), or the final `batch_complete` { succeeded, failed, response_time }',
  } as SchemaObject,
  // Multipart form: the contract's fields plus the file.
  translateFileUpload: {
    type: 'object',
    properties: { ...(fromZod(translateFileFieldsSchema, 'input').properties ?? {}), file: { type: 'string', format: 'binary' } },
    required: ['file', 'model_id', 'src_lang', 'tgt_lang'],
  } as SchemaObject,
  translateFileStart: fromZod(translateFileStartResponseSchema),
  translateFileTask: fromZod(translateFileTaskResponseSchema),
};
