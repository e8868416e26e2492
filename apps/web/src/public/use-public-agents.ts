import { useEffect, useState } from 'react';
import { listPublicAgents } from '../api/public-api';
import type { AgentDto } from '../api/types';

export function usePublicAgents() {
  const [agents, setAgents] = useState<AgentDto[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    listPublicAgents()
      .then((list) => live && setAgents(list))
      .catch((err: unknown) => {
        console.warn('Failed to load public agents', err);
        if (live) setError(err instanceof Error ? err.message : String(err));
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, []);
  return { agents, loading, error };
}

/** The `count` newest agents by created_at. */
export function latestAgents(agents: AgentDto[], count: number): AgentDto[] {
  return [...agents].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)).slice(0, count);
}
