import { apiJson } from './http';
import type { AgentDto, ApiKeyDto, KeyUsageDto, IngestionTaskDto, TeamMemberDto, UsageSummaryDto, UserDto } from '@gaia/contracts';

// Accounts
export const signUp = (body: { email: string; password: string; fullName?: string }) =>
  apiJson<{ user: UserDto }>('/api/auth/signup', { method: 'POST', body });
export const signIn = (body: { email: string; password: string }) =>
  apiJson<{ user: UserDto }>('/api/auth/signin', { method: 'POST', body });
export const signOut = () => apiJson<void>('/api/auth/signout', { method: 'POST' });
/** The session state: the signed-in user or null (200 either way, so a visitor's page logs no failed request). */
export const getSession = () => apiJson<{ user: UserDto | null }>('/api/auth/session');
export const OIDC_START_PATH = '/api/auth/oidc/start';
export const getAccount = () => apiJson<UserDto>('/api/account');
export const updateAccount = (body: { fullName?: string; displayName?: string }) =>
  apiJson<UserDto>('/api/account', { method: 'PATCH', body });

// Agents
export const listMyAgents = () => apiJson<{ owned: AgentDto[]; shared: AgentDto[] }>('/api/agents/mine');
export const updateAgent = (id: string, body: { src_lang?: string; tgt_lang?: string; custom_prompt?: string; core_memory?: string }) =>
  apiJson<AgentDto>(`/api/agents/${encodeURIComponent(id)}`, { method: 'PATCH', body });
export const setAgentVisibility = (id: string, isPublic: boolean) =>
  apiJson<AgentDto>(`/api/agents/${encodeURIComponent(id)}/visibility`, { method: 'POST', body: { public: isPublic } });
export const deleteModel = (modelId: string) =>
  apiJson<{ success: true }>('/api/delete-model/', { method: 'POST', body: { model_id: modelId } }, 'Failed to delete model');
export const processDocuments = (form: FormData, idempotencyKey?: string) =>
  apiJson<{ task_id: string; model_id: string; total_files: number }>('/api/documents/process/', { method: 'POST', body: form, idempotencyKey }, 'Failed to process files');
export const getTaskStatus = (taskId: string) =>
  apiJson<{ task: IngestionTaskDto }>(`/api/documents/status?task_id=${encodeURIComponent(taskId)}`, {}, 'Failed to fetch status');
export const updateModel = (form: FormData) =>
  apiJson<{ success: boolean; task_id?: string }>('/api/update-model/', { method: 'POST', body: form }, 'Failed to update agent');

// API keys and usage
export const createApiKey = (name: string) =>
  apiJson<{ success: boolean; api_key: string; key: ApiKeyDto }>('/api/api-keys/create/', { method: 'POST', body: { name } });
export const listApiKeys = () => apiJson<{ success: boolean; api_keys: ApiKeyDto[] }>('/api/api-keys/list/');
export const revokeApiKey = (keyId: string) => apiJson<{ success: true }>('/api/api-keys/revoke/', { method: 'POST', body: { key_id: keyId } });
export const getKeyUsage = (keyId: string) =>
  apiJson<{ success: boolean; usage: KeyUsageDto }>(`/api/api-keys/usage/?key_id=${encodeURIComponent(keyId)}`);
export const getUsageSummary = () => apiJson<UsageSummaryDto>('/api/usage/summary');

// Team
export const listTeam = () => apiJson<{ members: TeamMemberDto[] }>('/api/team');
export const addTeamMember = (body: { name: string; email: string }) =>
  apiJson<TeamMemberDto>('/api/team/members', { method: 'POST', body });
export const removeTeamMember = (id: string) => apiJson<void>(`/api/team/members/${encodeURIComponent(id)}`, { method: 'DELETE' });
