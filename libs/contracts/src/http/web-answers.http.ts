import type { AgentDto, TeamMemberDto } from '../rpc/agents.rpc';
import type { PlanDto, PlanRequestDto, KeyUsageDto } from '../rpc/billing.rpc';
import type { IngestionTaskDto } from '../rpc/ingestion.rpc';
import type { ApiKeyDto, UserDto } from './gateway.http';

/**
 * Answer envelopes of the gateway routes the web app reads (docs/api-surface.md). Types only: the web app
 * imports them with `import type`, so nothing of the contracts is bundled.
 */

/** `next_cursor` of a keyset-paginated list: pass it back as `cursor`; null on the last page. */
export type NextCursor = string | null;

/** POST /api/auth/signup, /api/auth/signin; GET /api/auth/session answers `user: null` for a visitor. */
export interface SessionResponse {
  user: UserDto | null;
}

/** GET /api/agents/mine: the agents the user owns and the ones shared with them, newest first. */
export interface MyAgentsResponse {
  owned: AgentDto[];
  shared: AgentDto[];
  next_cursor: NextCursor;
}

/** POST /api/documents/process/: the processing task of the new agent. */
export interface ProcessDocumentsResponse {
  task_id: string;
  model_id: string;
  total_files: number;
}

/** POST /api/update-model/: `task_id` when files were sent (a new processing task). */
export interface UpdateModelResponse {
  success: true;
  task_id?: string;
}

/** GET /api/documents/status?task_id= */
export interface TaskStatusResponse {
  task: IngestionTaskDto;
}

/** GET /api/api-keys/list/ */
export interface ApiKeyListResponse {
  success: true;
  api_keys: ApiKeyDto[];
  next_cursor: NextCursor;
}

/** GET /api/api-keys/usage/?key_id= */
export interface KeyUsageResponse {
  success: true;
  usage: KeyUsageDto;
}

/** GET /api/team */
export interface TeamListResponse {
  members: TeamMemberDto[];
}

/** POST /api/plans/request: Free applies at once ('active'); Starter/Enterprise become a request ('requested'). */
export interface PlanRequestResponse {
  status: 'active' | 'requested';
  plan: PlanDto;
  request: PlanRequestDto | null;
}

/** Answer of a write that has nothing else to say (delete, revoke, resend). */
export interface SuccessResponse {
  success: true;
}
