import type { AgentDto, AgentView } from '@gaia/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { deleteModel, setAgentVisibility } from '../../api/account-api';
import { modelFilesName } from '../../api/dashboard-api';
import { downloadAgentFiles, saveBlob } from '../../api/public-api';
import { agentQuery, queryKeys } from '../../api/queries';
import { getSocket } from '../lib/realtime';

/** The full record (owner and editors), not the public projection anyone else is given. */
export function isFullAgent(view: AgentView): view is AgentDto {
  return 'uid' in view;
}

/**
 * The agent of the dashboard's agent page: null when it is unknown or the user only reads it (a reader gets the
 * public projection, which has no place in the signed-in area). Socket.IO `agent_updated` pushes land in the cache.
 */
export function useDashboardAgent(modelId: string): { agent: AgentDto | null; loading: boolean } {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(agentQuery(modelId));
  useEffect(() => {
    const socket = getSocket();
    const onUpdate = (next: AgentDto) => {
      if (next.id === modelId) queryClient.setQueryData<AgentView>(queryKeys.agent(modelId), (a) => (a ? { ...a, ...next } : a));
    };
    socket.on('agent_updated', onUpdate);
    return () => {
      socket.off('agent_updated', onUpdate);
    };
  }, [modelId, queryClient]);
  return { agent: data && isFullAgent(data) ? data : null, loading: isPending };
}

/** Writes a new state of an agent into the cache and refetches the lists that show it. */
export function useAgentWrite(): (next: AgentDto) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (next: AgentDto) => {
      queryClient.setQueryData(queryKeys.agent(next.id), next);
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents, predicate: (q) => q.queryKey[1] !== 'one' });
    },
    [queryClient],
  );
}

/** POST /api/agents/{id}/visibility (owner only). */
export function useVisibilityMutation(agent: AgentDto) {
  const write = useAgentWrite();
  return useMutation({
    mutationFn: (isPublic: boolean) => setAgentVisibility(agent.id, isPublic),
    onSuccess: (next) => write({ ...agent, ...next }),
    onError: (err) => console.error('Failed to update visibility', err),
  });
}

/** POST /api/delete-model/ (owner only): the agent leaves the cache and every list. */
export function useDeleteAgentMutation(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteModel(agentId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: queryKeys.agent(agentId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.agents });
    },
    onError: (err) => console.error('Failed to delete model', err),
  });
}

const DOWNLOAD_FILES_FAILED = 'Failed to download files';

/** The owner's (or an editor's) download of the agent's files, saved as model_{id}_files.zip. */
export function useDownloadFilesMutation(agentId: string) {
  return useMutation({
    mutationFn: () => downloadAgentFiles(agentId, DOWNLOAD_FILES_FAILED),
    onSuccess: (blob) => saveBlob(blob, modelFilesName(agentId)),
    onError: (err) => console.error('Failed to download files', err),
  });
}
