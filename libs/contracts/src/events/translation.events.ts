import { z } from 'zod';
import { engineKindSchema } from '../rpc/translation.rpc';
import { defineEvent, type EventRegistry } from './define';
import { qualityAbSchema } from '../quality/quality.contracts';

export const usageRecordedSchema = z.object({
  /** The translate request's id; billing deduplicates on it (one request = one record). */
  requestId: z.string().min(1),
  /** API key that made the request (null for session requests). */
  keyId: z.string().nullable(),
  /** Session user (or the key's owner when the gateway knows it); null when unknown. */
  userId: z.string().nullable(),
  agentId: z.string().min(1),
  /** Words of the source text, split on whitespace (what plans count). */
  sourceWords: z.number().int().nonnegative(),
  /** Tokens: LLM engine = API usage of all calls of both phases; built-in engine = its tokenizer's counts. */
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** Engine that produced the final text. */
  engine: engineKindSchema,
  /** Set when the agent's LLM engine failed and the built-in engine answered (e.g. `rate_limited`). */
  fallbackReason: z.string().nullable(),
  latencyMs: z.number().nonnegative(),
  /** ISO time the translation completed. */
  occurredAt: z.string(),
});
export type UsageRecordedV1 = z.infer<typeof usageRecordedSchema>;

export const qualityAbMeasuredSchema = z.object({
  agentId: z.string().min(1),
  /** The agent version whose held-out pairs were compared. */
  version: z.string().min(1),
  ab: qualityAbSchema,
});

/** Records per `usage.recorded-batch.v1` event at most. */
export const USAGE_BATCH_MAX_RECORDS = 200;
export const usageRecordedBatchSchema = z.object({ records: z.array(usageRecordedSchema).min(1).max(USAGE_BATCH_MAX_RECORDS) });
export type UsageRecordedBatchV1 = z.infer<typeof usageRecordedBatchSchema>;

/** Events published by the translation domain. Add entries; never rename or remove one (add a v2 instead). */
export const translationEvents = {
  'usage.recorded.v1': defineEvent({
    description: 'One completed translation request, for billing and usage pages (exactly once per requestId).',
    schema: usageRecordedSchema,
    subscribers: ['billing'],
    keyField: 'agentId',
  }),
  'usage.recorded-batch.v1': defineEvent({
    description:
      'Completed translation requests written together (the translation service commits the usage of concurrent requests in one transaction); each record as usage.recorded.v1, exactly once per requestId.',
    schema: usageRecordedBatchSchema,
    subscribers: ['billing'],
  }),
  'translation.quality-ab-measured.v1': defineEvent({
    description:
      'The built-in and LLM engines compared on the same held-out pairs of an agent version (A/B, after the build): agents adds it to the quality report.',
    schema: qualityAbMeasuredSchema,
    subscribers: ['agents'],
    keyField: 'agentId',
  }),
} satisfies EventRegistry;
