import { z } from 'zod';
import { planIdSchema } from '../rpc/billing.rpc';
import { appliedTermSchema, untranslatedSpanSchema } from '../rpc/translation.rpc';
import { translationExplanationSchema } from '../quality/quality.contracts';

/**
 * HTTP DTOs of the gateway (docs/api-surface.md), shared with the web app. Request schemas are what the
 * gateway validates; response types are what it answers.
 */

export const signUpBodySchema = z.object({
  email: z.string(),
  password: z.string().describe('At least 8 characters; common passwords and ones containing the email or name are refused'),
  fullName: z.string().max(200).optional(),
});
export const signInBodySchema = z.object({ email: z.string(), password: z.string() });
export const updateAccountBodySchema = z.object({
  fullName: z.string().max(200).nullable().optional(),
  displayName: z.string().max(200).nullable().optional(),
});

export const userDtoSchema = z.object({
  uid: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  displayName: z.string().nullable(),
  accountType: z.literal('Standard'),
  creationTime: z.string().meta({ format: 'date-time' }),
  lastSignInTime: z.string().meta({ format: 'date-time' }).nullable(),
  /** Plan name ('Free' | 'Starter' | 'Enterprise'). */
  plan: z.string(),
  /** True once the user opened the verification link (or the identity provider vouched for the address). */
  emailVerified: z.boolean(),
});
export type UserDto = z.infer<typeof userDtoSchema>;

/** Body of POST /api/auth/verify-email and POST /api/team/invitations/accept: the token of the mailed link. */
export const linkTokenBodySchema = z.object({ token: z.string().min(1).max(200) });

export const publicConfigDtoSchema = z.object({ publicApiKey: z.string(), oidcEnabled: z.boolean(), oidcProviderName: z.string().nullable() });
export type PublicConfigDto = z.infer<typeof publicConfigDtoSchema>;

export const apiKeyDtoSchema = z.object({
  key_id: z.string(),
  name: z.string(),
  /** Visible part of the key (`gaia_<prefix>_…`). */
  prefix: z.string(),
  created_at: z.string().meta({ format: 'date-time' }),
  revoked: z.boolean(),
});
export type ApiKeyDto = z.infer<typeof apiKeyDtoSchema>;

export const createApiKeyBodySchema = z.object({ name: z.string(), uid: z.string().optional() });
export const revokeApiKeyBodySchema = z.object({ key_id: z.string().min(1), uid: z.string().optional() });

export const createApiKeyResponseSchema = z.object({
  success: z.literal(true),
  /** The full key, shown once. */
  api_key: z.string(),
  key: apiKeyDtoSchema,
});
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponseSchema>;

/** Text of a replayed key creation (the secret is never stored, so it cannot be answered again). */
export const API_KEY_SECRET_SHOWN_ONCE =
  'The secret of this key was shown only once, in the first answer; it is not stored. If it was lost, revoke the key and create a new one.';

/** POST /api/api-keys/create/ replayed with the same Idempotency-Key: the key's metadata, never its secret. */
export const createApiKeyReplayResponseSchema = z.object({
  success: z.literal(true),
  api_key: z.null(),
  key: apiKeyDtoSchema,
  secret_shown_once: z.literal(true),
  /** What to do if the secret was lost (API_KEY_SECRET_SHOWN_ONCE). */
  message: z.string(),
});
export type CreateApiKeyReplayResponse = z.infer<typeof createApiKeyReplayResponseSchema>;

/** POST /api/translate/ body (spec §7). */
export const translateBodySchema = z.object({
  text: z.string().describe('At most 50 words and 2,000 characters'),
  model_id: z.string(),
  src_lang: z.string(),
  tgt_lang: z.string(),
  stream: z.boolean().default(true),
  explain: z.boolean().default(false).describe('Also answer `explanation`: the examples, lexicon and glossary entries that shaped the translation'),
});
export type TranslateHttpBody = z.input<typeof translateBodySchema>;

/** POST /api/translate/ answer with `stream: false`. */
export const translateJsonResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ translation: z.string(), raw_translation: z.string() }),
  /** 0..1, as in the `translation_complete` event. */
  confidence: z.number(),
  /** Source spans left untranslated, as in the `translation_complete` event. */
  untranslated: z.array(untranslatedSpanSchema),
  /** Glossary terms applied, as in the `translation_complete` event. */
  applied_terms: z.array(appliedTermSchema),
  source_text: z.string(),
  response_time: z.number(),
  source_language: z.string(),
  target_language: z.string(),
  /** Only with `explain: true`, as in the `translation_complete` event. */
  explanation: translationExplanationSchema.optional(),
});
export type TranslateJsonResponse = z.infer<typeof translateJsonResponseSchema>;

export const agentPatchBodySchema = z.object({
  src_lang: z.string().optional(),
  tgt_lang: z.string().optional(),
  custom_prompt: z.string().optional(),
  core_memory: z.string().optional(),
});
export const visibilityBodySchema = z.object({ public: z.boolean() });
export const deleteModelBodySchema = z.object({ model_id: z.string().min(1), uid: z.string().optional() });
export const teamInviteBodySchema = z.object({ name: z.string().optional(), email: z.string().optional() });

/** Every refusal: `{ error }` with the HTTP status (and the `X-Error-Code` header). */
export const errorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** POST /api/plans/request body. */
export const planRequestBodySchema = z.object({ plan: planIdSchema });

/** Longest email address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 320;
/** POST /api/account/delete body: the account's email, typed to confirm. */
export const deleteAccountBodySchema = z.object({ email: z.string().max(EMAIL_MAX_LENGTH).describe('The account email, to confirm') });

/** Longest language code or name of a corpus search. */
export const CORPUS_LANG_MAX_LENGTH = 20;
/** GET /api/corpora query: the language pair. */
export const corpusPairQuerySchema = z.object({
  src_lang: z.string().trim().min(1).max(CORPUS_LANG_MAX_LENGTH),
  tgt_lang: z.string().trim().min(1).max(CORPUS_LANG_MAX_LENGTH),
});
/** POST /api/corpora/import body: a listed corpus into a new agent, or into `model_id` (an own agent). */
export const corpusImportBodySchema = corpusPairQuerySchema.extend({
  corpus: z.string().min(1).max(200),
  format: z.enum(['moses', 'tmx']).optional(),
  model_id: z.string().min(1).max(200).optional().describe('Existing agent (owner only); omitted: a new agent'),
});

/** POST /api/auth/verify-email answer. */
export const emailVerifiedResponseSchema = z.object({ verified: z.literal(true), email: z.string() });
