import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import {
  agentDtoSchema,
  agentPatchBodySchema,
  apiKeyDtoSchema,
  apiKeyListResponseSchema,
  billingRpc,
  corpusImportBodySchema,
  createApiKeyBodySchema,
  createApiKeyReplayResponseSchema,
  createApiKeyResponseSchema,
  deleteAccountBodySchema,
  deleteModelBodySchema,
  emailVerifiedResponseSchema,
  errorBodySchema,
  ingestionRpc,
  keyUsageResponseSchema,
  linkTokenBodySchema,
  myAgentsResponseSchema,
  planRequestBodySchema,
  planRequestResponseSchema,
  processDocumentsResponseSchema,
  publicAgentDtoSchema,
  publicAgentListResponseSchema,
  publicConfigDtoSchema,
  revokeApiKeyBodySchema,
  sessionResponseSchema,
  signInBodySchema,
  signUpBodySchema,
  successResponseSchema,
  taskStatusResponseSchema,
  teamInviteBodySchema,
  teamListResponseSchema,
  teamMemberDtoSchema,
  translateBodySchema,
  translateJsonResponseSchema,
  translationEventSchema,
  updateAccountBodySchema,
  updateModelResponseSchema,
  userDtoSchema,
  userResponseSchema,
  visibilityBodySchema,
} from '@gaia/contracts';

/**
 * JSON Schemas for the OpenAPI 3.0 document (`nullable`, no `const`), generated from the contract zod schemas:
 * `output` for what the API answers, `input` for request bodies (defaults optional). Only envelopes and multipart
 * forms are composed here.
 */
export function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'output'): SchemaObject {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any', io }) as Record<string, unknown>;
  delete out['$schema'];
  return out as SchemaObject;
}

const str = { type: 'string' } as const;
const agent = fromZod(agentDtoSchema);
const publicAgent = fromZod(publicAgentDtoSchema);

export const S = {
  error: fromZod(errorBodySchema),
  success: fromZod(successResponseSchema),
  user: fromZod(userDtoSchema),
  userEnvelope: fromZod(userResponseSchema),
  sessionEnvelope: fromZod(sessionResponseSchema),
  signUp: fromZod(signUpBodySchema, 'input'),
  signIn: fromZod(signInBodySchema, 'input'),
  accountPatch: fromZod(updateAccountBodySchema, 'input'),
  publicConfig: fromZod(publicConfigDtoSchema),
  apiKey: fromZod(apiKeyDtoSchema),
  createKey: fromZod(createApiKeyBodySchema, 'input'),
  createKeyResponse: { oneOf: [fromZod(createApiKeyResponseSchema), fromZod(createApiKeyReplayResponseSchema)] } as SchemaObject,
  keyList: fromZod(apiKeyListResponseSchema),
  revokeKey: fromZod(revokeApiKeyBodySchema, 'input'),
  keyUsage: fromZod(keyUsageResponseSchema),
  usageSummary: fromZod(billingRpc['billing.usage-summary.v1'].response),
  planRequestBody: fromZod(planRequestBodySchema, 'input'),
  planRequest: fromZod(planRequestResponseSchema),
  accountDelete: fromZod(deleteAccountBodySchema, 'input'),
  corpora: fromZod(ingestionRpc['ingestion.list-public-corpora.v1'].response),
  corpusImportBody: fromZod(corpusImportBodySchema, 'input'),
  corpusImport: fromZod(ingestionRpc['ingestion.import-public-corpus.v1'].response),
  translateBody: fromZod(translateBodySchema, 'input'),
  translateJson: fromZod(translateJsonResponseSchema),
  translationEvent: fromZod(translationEventSchema),
  agent,
  publicAgent,
  agentView: { oneOf: [agent, publicAgent] } as SchemaObject,
  publicAgentList: fromZod(publicAgentListResponseSchema),
  agentsMine: fromZod(myAgentsResponseSchema),
  agentPatch: fromZod(agentPatchBodySchema, 'input'),
  visibility: fromZod(visibilityBodySchema, 'input'),
  deleteModel: fromZod(deleteModelBodySchema, 'input'),
  task: fromZod(taskStatusResponseSchema),
  // Multipart forms (files and fields read by UploadsUseCase): not JSON, so no zod contract.
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
  processResponse: fromZod(processDocumentsResponseSchema),
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
  updateResponse: fromZod(updateModelResponseSchema),
  member: fromZod(teamMemberDtoSchema),
  teamList: fromZod(teamListResponseSchema),
  teamInvite: fromZod(teamInviteBodySchema, 'input'),
  verified: fromZod(emailVerifiedResponseSchema),
  linkToken: fromZod(linkTokenBodySchema, 'input'),
};
