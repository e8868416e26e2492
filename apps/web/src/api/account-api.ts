import { apiJson } from './http';
import type {
  AgentDto,
  ApiKeyListResponse,
  CreateApiKeyResponse,
  KeyUsageResponse,
  MyAgentsResponse,
  SessionResponse,
  SuccessResponse,
  TaskStatusResponse,
  TeamListResponse,
  TeamMemberDto,
  UsageSummaryDto,
  UserDto,
} from '@gaia/contracts';

// Accounts
export const signUp = (body: { email: string; password: string; fullName?: string }) =>
  apiJson<{ user: UserDto }>('/api/auth/signup', { method: 'POST', body });
export const signIn = (body: { email: string; password: string }) => apiJson<{ user: UserDto }>('/api/auth/signin', { method: 'POST', body });
export const signOut = () => apiJson<void>('/api/auth/signout', { method: 'POST' });
/** The session state: the signed-in user or null (200 either way, so a visitor's page logs no failed request). */
export const getSession = () => apiJson<SessionResponse>('/api/auth/session');
export const OIDC_START_PATH = '/api/auth/oidc/start';
export const getAccount = () => apiJson<UserDto>('/api/account');
export const updateAccount = (body: { fullName?: string; displayName?: string }) => apiJson<UserDto>('/api/account', { method: 'PATCH', body });

// Agents
export const listMyAgents = () => apiJson<MyAgentsResponse>('/api/agents/mine');
export const updateAgent = (id: string, body: { src_lang?: string; tgt_lang?: string; custom_prompt?: string; core_memory?: string }) =>
  apiJson<AgentDto>(`/api/agents/${encodeURIComponent(id)}`, { method: 'PATCH', body });
export const setAgentVisibility = (id: string, isPublic: boolean) =>
  apiJson<AgentDto>(`/api/agents/${encodeURIComponent(id)}/visibility`, { method: 'POST', body: { public: isPublic } });
export const deleteModel = (modelId: string) =>
  apiJson<SuccessResponse>('/api/delete-model/', { method: 'POST', body: { model_id: modelId } }, 'Failed to delete model');
export const getTaskStatus = (taskId: string) =>
  apiJson<TaskStatusResponse>(`/api/documents/status?task_id=${encodeURIComponent(taskId)}`, {}, 'Failed to fetch status');

// API keys and usage
export const createApiKey = (name: string) => apiJson<CreateApiKeyResponse>('/api/api-keys/create/', { method: 'POST', body: { name } });
export const listApiKeys = () => apiJson<ApiKeyListResponse>('/api/api-keys/list/');
export const revokeApiKey = (keyId: string) => apiJson<SuccessResponse>('/api/api-keys/revoke/', { method: 'POST', body: { key_id: keyId } });
export const getKeyUsage = (keyId: string) => apiJson<KeyUsageResponse>(`/api/api-keys/usage/?key_id=${encodeURIComponent(keyId)}`);
export const getUsageSummary = () => apiJson<UsageSummaryDto>('/api/usage/summary');

// Team
export const listTeam = () => apiJson<TeamListResponse>('/api/team');
export const addTeamMember = (body: { name: string; email: string }) => apiJson<TeamMemberDto>('/api/team/members', { method: 'POST', body });
export const removeTeamMember = (id: string) => apiJson<void>(`/api/team/members/${encodeURIComponent(id)}`, { method: 'DELETE' });
