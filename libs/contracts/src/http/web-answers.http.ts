import { z } from 'zod';
import { agentDtoSchema, publicAgentDtoSchema, teamMemberDtoSchema } from '../rpc/agents.rpc';
import { billingRpc, keyUsageDtoSchema } from '../rpc/billing.rpc';
import { ingestionTaskSchema } from '../rpc/ingestion.rpc';
import { apiKeyDtoSchema, userDtoSchema } from './gateway.http';

/**
 * Answer envelopes of the gateway routes the web app reads (docs/api-surface.md), as zod schemas (the OpenAPI
 * document is generated from them) with their types. The web app imports the types only (`import type`), so
 * nothing of the contracts is bundled.
 */

/** `next_cursor` of a keyset-paginated list: pass it back as `cursor`; null on the last page. */
export const nextCursorSchema = z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page');
export type NextCursor = z.infer<typeof nextCursorSchema>;

/** POST /api/auth/signup, /api/auth/signin, PATCH /api/account: the signed-in user. */
export const userResponseSchema = z.object({ user: userDtoSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;

/** GET /api/auth/session: the user, or `user: null` for a visitor. */
export const sessionResponseSchema = z.object({ user: userDtoSchema.nullable() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** GET /api/agents/public: public agents, newest first. */
export const publicAgentListResponseSchema = z.object({ agents: z.array(publicAgentDtoSchema), next_cursor: nextCursorSchema });
export type PublicAgentListResponse = z.infer<typeof publicAgentListResponseSchema>;

/** GET /api/agents/mine: the agents the user owns and the ones shared with them, newest first. */
export const myAgentsResponseSchema = z.object({ owned: z.array(agentDtoSchema), shared: z.array(agentDtoSchema), next_cursor: nextCursorSchema });
export type MyAgentsResponse = z.infer<typeof myAgentsResponseSchema>;

/** POST /api/documents/process/: the processing task of the new agent. */
export const processDocumentsResponseSchema = z.object({ task_id: z.string(), model_id: z.string(), total_files: z.number().int() });
export type ProcessDocumentsResponse = z.infer<typeof processDocumentsResponseSchema>;

/** POST /api/update-model/: `task_id` when files were sent (a new processing task). */
export const updateModelResponseSchema = z.object({ success: z.literal(true), task_id: z.string().optional() });
export type UpdateModelResponse = z.infer<typeof updateModelResponseSchema>;

/** GET /api/documents/status?task_id= */
export const taskStatusResponseSchema = z.object({ task: ingestionTaskSchema });
export type TaskStatusResponse = z.infer<typeof taskStatusResponseSchema>;

/** GET /api/api-keys/list/ */
export const apiKeyListResponseSchema = z.object({ success: z.literal(true), api_keys: z.array(apiKeyDtoSchema), next_cursor: nextCursorSchema });
export type ApiKeyListResponse = z.infer<typeof apiKeyListResponseSchema>;

/** GET /api/api-keys/usage/?key_id= */
export const keyUsageResponseSchema = z.object({ success: z.literal(true), usage: keyUsageDtoSchema });
export type KeyUsageResponse = z.infer<typeof keyUsageResponseSchema>;

/** GET /api/team */
export const teamListResponseSchema = z.object({ members: z.array(teamMemberDtoSchema) });
export type TeamListResponse = z.infer<typeof teamListResponseSchema>;

/** POST /api/plans/request: Free applies at once ('active'); Starter/Enterprise become a request ('requested'). */
export const planRequestResponseSchema = billingRpc['billing.request-plan.v1'].response;
export type PlanRequestResponse = z.infer<typeof planRequestResponseSchema>;

/** Answer of a write that has nothing else to say (delete, revoke, resend). */
export const successResponseSchema = z.object({ success: z.literal(true) });
export type SuccessResponse = z.infer<typeof successResponseSchema>;
