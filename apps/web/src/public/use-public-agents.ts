import type { PublicAgentDto } from '@gaia/contracts';
import { useQuery } from '@tanstack/react-query';
import { publicAgentsQuery } from '../api/queries';

/** The public agents (GET /api/agents/public), through the query cache. */
export function usePublicAgents() {
  const { data, isPending, error } = useQuery(publicAgentsQuery());
  return { agents: data ?? [], loading: isPending, error: error ? error.message : null };
}

/** The `count` newest agents by created_at. */
export function latestAgents<T extends Pick<PublicAgentDto, 'created_at'>>(agents: T[], count: number): T[] {
  return [...agents].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)).slice(0, count);
}
