import type { AgentDto } from '@gaia/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { ApiError } from '../../api/http';
import { myAgentsQuery, queryKeys } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';

const UNAUTHORIZED = 401;

export interface DashboardData {
  owned: AgentDto[];
  shared: AgentDto[];
  /** Own agents first, then the ones shared with the user (no duplicates). */
  all: AgentDto[];
  loading: boolean;
  error: string | null;
  /** Refetches every agent read (the owner's list, the agent pages, the public list). */
  reload(): Promise<void>;
}

/** The signed-in user's agents (GET /api/agents/mine), one cached read shared by every tab. */
export function useDashboardData(): DashboardData {
  const { user, refresh } = useAuth();
  const queryClient = useQueryClient();
  const { data, isPending, error } = useQuery({ ...myAgentsQuery(user?.uid ?? ''), enabled: !!user });

  useEffect(() => {
    // The session ended (expired, signed out elsewhere): the auth state update sends the user to sign in.
    if (error instanceof ApiError && error.status === UNAUTHORIZED) void refresh();
  }, [error, refresh]);

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: queryKeys.agents }), [queryClient]);
  return useMemo(() => {
    const owned = data?.owned ?? [];
    const shared = data?.shared ?? [];
    const ids = new Set(owned.map((a) => a.id));
    return { owned, shared, all: [...owned, ...shared.filter((a) => !ids.has(a.id))], loading: isPending, error: error ? error.message : null, reload };
  }, [data, isPending, error, reload]);
}
