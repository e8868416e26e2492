import { queryOptions } from '@tanstack/react-query';
import { getPublicConfig, getAgent, listPublicAgents } from './public-api';
import { listMyAgents } from './account-api';

/**
 * Keys and reads of the query cache, one place for every page: a write invalidates by these keys
 * (`['agents']` covers the public list, the owner's list and every agent).
 */
export const queryKeys = {
  publicConfig: ['public-config'] as const,
  agents: ['agents'] as const,
  publicAgents: ['agents', 'public'] as const,
  myAgents: (uid: string) => ['agents', 'mine', uid] as const,
  agent: (id: string) => ['agents', 'one', id] as const,
  fileTask: (id: string) => ['file-tasks', id] as const,
};

/** GET /api/public/config: fixed for the page's life (retried after a failure). */
export const publicConfigQuery = () => queryOptions({ queryKey: queryKeys.publicConfig, queryFn: getPublicConfig, staleTime: Infinity });
export const publicAgentsQuery = () => queryOptions({ queryKey: queryKeys.publicAgents, queryFn: listPublicAgents });
/** GET /api/agents/mine of the signed-in user `uid` (a list per user: another sign-in never sees it). */
export const myAgentsQuery = (uid: string) => queryOptions({ queryKey: queryKeys.myAgents(uid), queryFn: listMyAgents });
export const agentQuery = (id: string) => queryOptions({ queryKey: queryKeys.agent(id), queryFn: () => getAgent(id) });
