import type { UserDto } from '@gaia/contracts';
import { queryOptions } from '@tanstack/react-query';
import { getAccount, getKeyUsage, getSession, getTaskStatus, getUsageSummary, listApiKeys, listMyAgents, listTeam } from './account-api';
import { listPublicCorpora } from './corpora-api';
import { getAgent, getPublicConfig, listPublicAgents } from './public-api';

/**
 * Keys and reads of the query cache, one place for every page: a write invalidates by these keys
 * (`['agents']` covers the public list, the owner's list and every agent).
 */
export const queryKeys = {
  session: ['session'] as const,
  publicConfig: ['public-config'] as const,
  agents: ['agents'] as const,
  publicAgents: ['agents', 'public'] as const,
  myAgents: (uid: string) => ['agents', 'mine', uid] as const,
  agent: (id: string) => ['agents', 'one', id] as const,
  task: (id: string) => ['tasks', id] as const,
  fileTask: (id: string) => ['file-tasks', id] as const,
  account: ['account'] as const,
  usageSummary: ['usage', 'summary'] as const,
  apiKeys: ['api-keys'] as const,
  keyUsage: (keyId: string) => ['api-keys', 'usage', keyId] as const,
  team: ['team'] as const,
  publicCorpora: (srcLang: string, tgtLang: string) => ['corpora', srcLang, tgtLang] as const,
};

/** GET /api/public/config: fixed for the page's life (retried after a failure). */
export const publicConfigQuery = () =>
  queryOptions({
    queryKey: queryKeys.publicConfig,
    queryFn: getPublicConfig,
    staleTime: Infinity,
  });
export const publicAgentsQuery = () => queryOptions({ queryKey: queryKeys.publicAgents, queryFn: listPublicAgents });
/** GET /api/agents/mine of the signed-in user `uid` (a list per user: another sign-in never sees it). */
export const myAgentsQuery = (uid: string) => queryOptions({ queryKey: queryKeys.myAgents(uid), queryFn: listMyAgents });
export const agentQuery = (id: string) => queryOptions({ queryKey: queryKeys.agent(id), queryFn: () => getAgent(id) });
export const accountQuery = () => queryOptions({ queryKey: queryKeys.account, queryFn: getAccount });
export const usageSummaryQuery = () => queryOptions({ queryKey: queryKeys.usageSummary, queryFn: getUsageSummary });
export const apiKeysQuery = () =>
  queryOptions({
    queryKey: queryKeys.apiKeys,
    queryFn: async () => (await listApiKeys()).api_keys ?? [],
  });
export const keyUsageQuery = (keyId: string) =>
  queryOptions({
    queryKey: queryKeys.keyUsage(keyId),
    queryFn: async () => (await getKeyUsage(keyId)).usage,
  });
export const teamQuery = () =>
  queryOptions({
    queryKey: queryKeys.team,
    queryFn: async () => (await listTeam()).members ?? [],
  });
export const publicCorporaQuery = (srcLang: string, tgtLang: string) =>
  queryOptions({
    queryKey: queryKeys.publicCorpora(srcLang, tgtLang),
    queryFn: async () => (await listPublicCorpora(srcLang, tgtLang)).corpora,
  });
/** GET /api/documents/status: a processing task (always refetched: it moves; Socket.IO pushes land here too). */
export const taskQuery = (taskId: string) =>
  queryOptions({
    queryKey: queryKeys.task(taskId),
    queryFn: async () => {
      const { task } = await getTaskStatus(taskId);
      return { ...task, id: task.id ?? taskId };
    },
    staleTime: 0,
  });

/** GET /api/auth/session: the signed-in user, or null (a failed read counts as signed out). */
export const sessionQuery = () =>
  queryOptions({
    queryKey: queryKeys.session,
    queryFn: async (): Promise<UserDto | null> => {
      try {
        return (await getSession()).user;
      } catch (err) {
        console.info('Auth state: not signed in', err instanceof Error ? err.message : err);
        return null;
      }
    },
  });
