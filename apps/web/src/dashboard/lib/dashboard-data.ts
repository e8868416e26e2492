import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { listMyAgents } from '../../api/account-api';
import { ApiError } from '../../api/http';
import type { AgentDto } from '../../api/types';
import { useAuth } from '../../auth/auth-context';

export interface DashboardData {
  owned: AgentDto[];
  shared: AgentDto[];
  /** Own agents first, then the ones shared with the user (no duplicates). */
  all: AgentDto[];
  loading: boolean;
  error: string | null;
  reload(): Promise<void>;
}

const Ctx = createContext<DashboardData | null>(null);

/** The user's agents, loaded once for every tab (GET /api/agents/mine). */
export function DashboardDataProvider({ children }: { children: ReactNode }) {
  const [owned, setOwned] = useState<AgentDto[]>([]);
  const [shared, setShared] = useState<AgentDto[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const live = useRef(true);
  const { refresh } = useAuth();

  const reload = useCallback(async () => {
    try {
      const res = await listMyAgents();
      if (!live.current) return;
      setOwned(res.owned ?? []);
      setShared(res.shared ?? []);
      setError(null);
    } catch (err) {
      console.error('Failed to load agents', err);
      // The session ended (expired, signed out elsewhere): the auth state update sends the user to sign in.
      if (err instanceof ApiError && err.status === 401) void refresh();
      if (live.current) setError(err instanceof Error ? err.message : 'Failed to load agents');
    } finally {
      if (live.current) setLoading(false);
    }
  }, [refresh]);

  useEffect(() => {
    live.current = true;
    void reload();
    return () => {
      live.current = false;
    };
  }, [reload]);

  const value = useMemo<DashboardData>(() => {
    const ids = new Set(owned.map((a) => a.id));
    return { owned, shared, all: [...owned, ...shared.filter((a) => !ids.has(a.id))], loading, error, reload };
  }, [owned, shared, loading, error, reload]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useDashboardData(): DashboardData {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useDashboardData must be used inside <DashboardDataProvider>');
  return ctx;
}

/** For tests and isolated renders: a fixed data set. */
export function StaticDashboardData({ value, children }: { value: Partial<DashboardData>; children: ReactNode }) {
  const full: DashboardData = { owned: [], shared: [], all: [], loading: false, error: null, reload: async () => undefined, ...value };
  if (!value.all) full.all = [...full.owned, ...full.shared];
  return <Ctx.Provider value={full}>{children}</Ctx.Provider>;
}
