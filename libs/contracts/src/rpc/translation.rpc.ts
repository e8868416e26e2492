import { z } from 'zod';
import { defineRpc, type RpcRegistry } from './define';
import { translationExplanationSchema } from '../quality/quality.contracts';

/** Limits of one translation request (spec §5/§9: 50 words as the UI enforces, 2,000 characters as the API documents). */
export const TRANSLATION_MAX_WORDS = 50;
export const TRANSLATION_MAX_CHARS = 2000;

/** Who pays for a request: the API key (`X-API-Key`) or the signed-in user (session). */
export const translationCallerSchema = z.object({
  keyId: z.string().min(1).nullable(),
  userId: z.string().min(1).nullable(),
});

export const engineKindSchema = z.enum(['builtin', 'llm']);
/** What the translation service needs of an agent record (`agents.resolve.v1` / `agents.access.v1` record). */
export const translationAgentSchema = z.object({
  id: z.string().min(1),
  src_lang: z.string(),
  tgt_lang: z.string(),
  custom_prompt: z.string(),
  core_memory: z.string(),
  engine: engineKindSchema,
  artifact_version: z.string().nullable(),
  artifact_key: z.string().nullable(),
  feedback_version: z.number().int().nonnegative().default(0),
});
export type TranslationAgentRecord = z.infer<typeof translationAgentSchema>;

export const translateRequestSchema = z.object({
  /** Idempotency/correlation id of the request: a retried request with the same id is billed once. */
  requestId: z.string().min(1).max(200),
  text: z.string(),
  model_id: z.string().min(1),
  src_lang: z.string().min(1),
  tgt_lang: z.string().min(1),
  caller: translationCallerSchema,
  /** Ask for `explanation` on translation_complete (the examples, lexicon and glossary entries that shaped the answer). */
  explain: z.boolean().optional(),
  /**
   * The caller keeps only the answer (the JSON form of POST /api/translate): no status events, and the translation
   * in one `translation_chunk` (the chunks joined, so a raw text that differs from the final one is kept) right
   * before `translation_complete`, instead of one event per word through every layer of the stream.
   */
  final_only: z.boolean().optional(),
  /**
   * The agent as the caller's access check just resolved it (`agents.access.v1` with `record: true`): the
   * translation service uses it instead of asking `agents.resolve.v1` again (one agents call per translation).
   */
  agent: translationAgentSchema.optional(),
});
export type TranslateRpcRequest = z.infer<typeof translateRequestSchema>;

/** At most this many untranslated spans are reported (a 2,000-character text has fewer words than that). */
export const TRANSLATION_MAX_UNTRANSLATED_SPANS = 1000;

/**
 * A part of the source text the engine could not translate: left out of the translation, or copied unchanged
 * when it may be a name. `start`/`end` are character offsets into `source_text` in UTF-16 code units (JavaScript
 * string indices), `end` exclusive; `text` is `source_text.slice(start, end)`.
 */
export const untranslatedSpanSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  text: z.string().max(TRANSLATION_MAX_CHARS),
});
export type UntranslatedSpan = z.infer<typeof untranslatedSpanSchema>;

/** Which engine serves an agent (stored on the agent; `builtin` by default) and which produced a translation. */
export type EngineKind = z.infer<typeof engineKindSchema>;

/** The phases of a translation that status events mark as each starts: retrieve examples, generate candidates, validate and refine. */
export const translationPhaseSchema = z.enum(['retrieve', 'candidates', 'refine']);
export type TranslationPhase = z.infer<typeof translationPhaseSchema>;

const statusEventSchema = z.object({
  type: z.literal('status'),
  /** The engine phase that starts; absent on other notices (e.g. "Agent loaded.", a fallback to the built-in engine). */
  phase: translationPhaseSchema.optional(),
  message: z.string(),
});
const chunkEventSchema = z.object({ type: z.literal('translation_chunk'), content: z.string() });
const errorEventSchema = z.object({ type: z.literal('error'), message: z.string() });

/** What an engine reports with its final text: the engine-side fields of `translation_complete`. */
export const translationResultSchema = z.object({
  final_translation: z.string(),
  /** Seconds, measured by the translation service from request receipt to the final event. */
  response_time: z.number().nonnegative(),
  source_text: z.string(),
  /** 0..1: low when the candidates disagree, the source is poorly covered or parts are untranslated. */
  confidence: z.number(),
  /** Source spans left untranslated (empty when everything was translated or the engine does not report them). */
  untranslated: z.array(untranslatedSpanSchema).max(TRANSLATION_MAX_UNTRANSLATED_SPANS).default([]),
});
export type TranslationResult = z.infer<typeof translationResultSchema>;

/** A glossary term the answer applied: the source term as written in the text and the required translation it forced. */
export const appliedTermSchema = z.object({ term: z.string(), translation: z.string() });
export type AppliedTerm = z.infer<typeof appliedTermSchema>;

/** The events of a translation, the objects of the SSE `data:` lines and Socket.IO `translation_event` (spec §7). */
export const translationEventSchema = z.discriminatedUnion('type', [
  statusEventSchema,
  chunkEventSchema,
  translationResultSchema.extend({
    type: z.literal('translation_complete'),
    source_language: z.string(),
    target_language: z.string(),
    /** Glossary terms of the agent found in the source and present in the translation (empty when none). */
    applied_terms: z.array(appliedTermSchema).default([]),
    /** Engine that produced the final text (`builtin` after a fallback). */
    engine: engineKindSchema,
    /** Only when the request asked `explain: true`: the examples, lexicon and glossary entries that shaped the answer. */
    explanation: translationExplanationSchema.optional(),
  }),
  errorEventSchema,
]);
export type TranslationEventDto = z.infer<typeof translationEventSchema>;

/** The events before and instead of the result: `status`, `translation_chunk`, `error` (the same on the wire and in the engines). */
export type TranslationProgressEvent = Exclude<TranslationEventDto, { type: 'translation_complete' }>;

/**
 * The events of a translation as an engine yields them (the built-in engine of `@gaia/engine`, the LLM engine):
 * the wire's progress events, and a `translation_complete` of the engine's result fields plus the engine's
 * `provenance` (its own shape; it never goes on the wire). The translation service turns them into `TranslationEventDto`.
 */
export type EngineTranslationEvent<Provenance = unknown> =
  TranslationProgressEvent | ({ type: 'translation_complete'; provenance: Provenance } & TranslationResult);

/** Calls served by the translation service. Add entries; never rename or remove one (add a v2 instead). */
export const translationRpc = {
  'translation.translate.v1': defineRpc({
    service: 'translation',
    stream: true,
    // Between two events: an LLM call may take OPENAI_TIMEOUT_MS (30 s) × (1 + OPENAI_MAX_RETRIES) plus backoff.
    timeoutMs: 120_000,
    description:
      'Translates one text with an agent, streaming status, translation_chunk, then translation_complete. ' +
      'Rule violations (limits, unknown agent, language mismatch) fail the call with a DomainError before any event. ' +
      'Records usage once per requestId (billing.record-usage.v1; usage.recorded.v1 / usage.recorded-batch.v1 when billing cannot answer).',
    request: translateRequestSchema,
    response: translationEventSchema,
  }),
} satisfies RpcRegistry;
