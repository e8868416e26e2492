import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import { translateBatchBodySchema, translateFileFieldsSchema, translationEventSchema, TRANSLATE_FILE_FORMATS } from '@gaia/contracts';

/** OpenAPI 3.0 schemas of batch and file translation, generated from the contract zod schemas where they exist. */
function json(schema: z.ZodType, io: 'input' | 'output' = 'output'): SchemaObject {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out['$schema'];
  return out as SchemaObject;
}
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;

const itemResult: SchemaObject = {
  type: 'object',
  description: 'ok true: translation, raw_translation, response_time; ok false: status and error (the other texts are unaffected)',
  properties: { index: int, ok: { type: 'boolean' }, translation: str, raw_translation: str, response_time: num, status: int, error: str },
  required: ['index', 'ok'],
};

export const SB = {
  translateBatchBody: json(translateBatchBodySchema, 'input'),
  translateBatchJson: {
    type: 'object',
    properties: { success: { type: 'boolean' }, results: { type: 'array', items: itemResult }, succeeded: int, failed: int, source_language: str, target_language: str, response_time: num },
    required: ['success', 'results', 'succeeded', 'failed', 'source_language', 'target_language', 'response_time'],
  } as SchemaObject,
  translateBatchEvent: {
    description: 'A translation event of text `index` (status, translation_chunk, translation_complete, error), or the final `batch_complete` { succeeded, failed, response_time }',
    oneOf: [
      { allOf: [json(translationEventSchema), { type: 'object', properties: { index: int }, required: ['index'] }] },
      { type: 'object', properties: { type: { type: 'string', enum: ['batch_complete'] }, succeeded: int, failed: int, response_time: num }, required: ['type', 'succeeded', 'failed', 'response_time'] },
    ],
  } as SchemaObject,
  translateFileUpload: {
    type: 'object',
    properties: { ...(json(translateFileFieldsSchema, 'input').properties ?? {}), file: { type: 'string', format: 'binary' } },
    required: ['file', 'model_id', 'src_lang', 'tgt_lang'],
  } as SchemaObject,
  translateFileStart: { type: 'object', properties: { task_id: str, total_segments: int }, required: ['task_id', 'total_segments'] } as SchemaObject,
  translateFileTask: {
    type: 'object',
    properties: {
      task: {
        type: 'object',
        properties: {
          id: str,
          status: { type: 'string', enum: ['PROCESSING', 'COMPLETED', 'FAILED'] },
          progress: int,
          message: str,
          format: { type: 'string', enum: [...TRANSLATE_FILE_FORMATS] },
          file_name: str,
          model_id: str,
          total_segments: int,
          translated_segments: int,
          failed_segments: int,
          created_at: { type: 'string', format: 'date-time' },
        },
        required: ['id', 'status', 'progress', 'message', 'format', 'file_name', 'model_id', 'total_segments', 'translated_segments', 'failed_segments', 'created_at'],
      },
    },
    required: ['task'],
  } as SchemaObject,
};
