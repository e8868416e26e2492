import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import {
  agentDtoSchema,
  appliedTermSchema,
  agentPatchBodySchema,
  agentsRpc,
  apiKeyDtoSchema,
  billingRpc,
  createApiKeyBodySchema,
  createApiKeyReplayResponseSchema,
  createApiKeyResponseSchema,
  deleteModelBodySchema,
  ingestionRpc,
  ingestionTaskSchema,
  linkTokenBodySchema,
  publicAgentDtoSchema,
  publicConfigDtoSchema,
  revokeApiKeyBodySchema,
  signInBodySchema,
  signUpBodySchema,
  teamInviteBodySchema,
  translateBodySchema,
  translationEventSchema,
  untranslatedSpanSchema,
  translationExplanationSchema,
  updateAccountBodySchema,
  userDtoSchema,
  visibilityBodySchema,
} from '@gaia/contracts';

/**
 * JSON Schemas for the OpenAPI 3.0 document (`nullable`, no `const`), generated from the contract zod schemas:
 * `output` for what the API answers, `input` for request bodies (defaults optional). Only envelopes and multipart
 * forms are composed here.
 */
function json(schema: z.ZodType, io: 'input' | 'output' = 'output'): SchemaObject {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out['$schema'];
  return out as SchemaObject;
}

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
/** Cursor of the next page of a list (pass it as `cursor`); null on the last page. */
const nextCursor: SchemaObject = { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' };
const obj = (properties: Record<string, SchemaObject>, required: string[] = Object.keys(properties)): SchemaObject => ({ type: 'object', properties, required });

const user = json(userDtoSchema);
const apiKey = json(apiKeyDtoSchema);
const agent = json(agentDtoSchema);
const publicAgent = json(publicAgentDtoSchema);
const member = json(agentsRpc['agents.team-invite.v1'].response);

export const S = {
  error: obj({ error: str }),
  success: obj({ success: { type: 'boolean', enum: [true] } }),
  user,
  userEnvelope: obj({ user }),
  sessionEnvelope: obj({ user: { ...user, nullable: true } }),
  signUp: json(signUpBodySchema, 'input'),
  signIn: json(signInBodySchema, 'input'),
  accountPatch: json(updateAccountBodySchema, 'input'),
  publicConfig: json(publicConfigDtoSchema),
  apiKey,
  createKey: json(createApiKeyBodySchema, 'input'),
  createKeyResponse: { oneOf: [json(createApiKeyResponseSchema), json(createApiKeyReplayResponseSchema)] } as SchemaObject,
  keyList: obj({ success: bool, api_keys: { type: 'array', items: apiKey }, next_cursor: nextCursor }),
  revokeKey: json(revokeApiKeyBodySchema, 'input'),
  keyUsage: obj({ success: bool, usage: json(billingRpc['billing.key-usage.v1'].response) }),
  usageSummary: json(billingRpc['billing.usage-summary.v1'].response),
  planRequestBody: obj({ plan: { type: 'string', enum: ['free', 'starter', 'enterprise'] } }),
  planRequest: json(billingRpc['billing.request-plan.v1'].response),
  accountDelete: obj({ email: { type: 'string', maxLength: 320, description: 'The account email, to confirm' } }),
  corpora: json(ingestionRpc['ingestion.list-public-corpora.v1'].response),
  corpusImportBody: obj({ src_lang: str, tgt_lang: str, corpus: str, format: { type: 'string', enum: ['moses', 'tmx'] }, model_id: { type: 'string', description: 'Existing agent (owner only); omitted: a new agent' } }, ['src_lang', 'tgt_lang', 'corpus']),
  corpusImport: json(ingestionRpc['ingestion.import-public-corpus.v1'].response),
  translateBody: json(translateBodySchema, 'input'),
  translateJson: obj({
    success: bool,
    data: obj({ translation: str, raw_translation: str }),
    confidence: { type: 'number' },
    untranslated: { type: 'array', items: json(untranslatedSpanSchema) },
    applied_terms: { type: 'array', items: json(appliedTermSchema), description: 'Glossary terms of the agent found in the text and present in the translation' },
    source_text: str,
    response_time: { type: 'number' },
    source_language: str,
    target_language: str,
    explanation: { ...json(translationExplanationSchema), description: 'Only with explain: true' },
  }),
  translationEvent: json(translationEventSchema),
  agent,
  publicAgent,
  agentView: { oneOf: [agent, publicAgent] } as SchemaObject,
  publicAgentList: obj({ agents: { type: 'array', items: publicAgent }, next_cursor: nextCursor }),
  agentsMine: obj({ owned: { type: 'array', items: agent }, shared: { type: 'array', items: agent }, next_cursor: nextCursor }),
  agentPatch: json(agentPatchBodySchema, 'input'),
  visibility: json(visibilityBodySchema, 'input'),
  deleteModel: json(deleteModelBodySchema, 'input'),
  task: obj({ task: json(ingestionTaskSchema) }),
  processUpload: {
    type: 'object',
    properties: {
      src_lang: str,
      tgt_lang: str,
      custom_prompt: str,
      core_memory: str,
      uid: { type: 'string', description: 'Ignored (the caller is the session).' },
      files: { type: 'array', items: { type: 'string', format: 'binary' } },
    },
    required: ['src_lang', 'tgt_lang', 'custom_prompt', 'files'],
  } as SchemaObject,
  processResponse: obj({ task_id: str, model_id: str, total_files: { type: 'integer' } }),
  updateUpload: {
    type: 'object',
    properties: {
      model_id: str,
      src_lang: str,
      tgt_lang: str,
      custom_prompt: str,
      core_memory: str,
      file_count: { type: 'integer' },
      parallel_sentences_0: { type: 'string', format: 'binary', description: 'parallel_sentences_{n}: one field per file' },
    },
    required: ['model_id'],
  } as SchemaObject,
  updateResponse: obj({ success: bool, task_id: str }, ['success']),
  member,
  teamList: obj({ members: { type: 'array', items: member } }),
  teamInvite: json(teamInviteBodySchema, 'input'),
  verified: obj({ verified: { type: 'boolean', enum: [true] }, email: str }),
  linkToken: json(linkTokenBodySchema, 'input'),
};
