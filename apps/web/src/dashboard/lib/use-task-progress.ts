import type { IngestionTaskDto } from '@gaia/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { taskQuery } from '../../api/queries';
import { getSocket } from './realtime';
import { STATUS_POLL_MS } from './rules';

/** Safety-net poll while the socket is connected (an event may be missed across a reconnect). */
const CONNECTED_POLL_MS = 10_000;

const isTerminal = (task: IngestionTaskDto | undefined) => task?.status === 'COMPLETED' || task?.status === 'FAILED';

export interface TaskProgress {
  task: IngestionTaskDto | null;
  /** 'Failed to fetch status' when a poll fails; cleared by the next good answer. */
  error: string | null;
  realtime: boolean;
}

/**
 * Follows a processing task in the query cache: Socket.IO `subscribe_task` → `task_progress` pushes, and
 * GET /api/documents/status every 2 s while the socket is unavailable (every 10 s while it is, as a safety
 * net) (spec §4/§9). Stops at COMPLETED or FAILED, then calls `onTerminal` once.
 */
export function useTaskProgress(taskId: string | null | undefined, onTerminal?: (task: IngestionTaskDto) => void): TaskProgress {
  const queryClient = useQueryClient();
  const [realtime, setRealtime] = useState(false);
  const query = useQuery({
    ...taskQuery(taskId ?? ''),
    enabled: !!taskId,
    refetchInterval: (q) => (isTerminal(q.state.data) ? false : realtime ? CONNECTED_POLL_MS : STATUS_POLL_MS),
  });

  useEffect(() => {
    if (!taskId) return;
    const key = taskQuery(taskId).queryKey;
    const accept = (next: IngestionTaskDto) => {
      if (next.id === taskId && !isTerminal(queryClient.getQueryData(key))) queryClient.setQueryData(key, next);
    };
    const socket = getSocket();
    const subscribe = () => {
      socket.emit('subscribe_task', { task_id: taskId });
      setRealtime(true);
    };
    const onDisconnect = () => setRealtime(false);
    socket.on('task_progress', accept);
    socket.on('connect', subscribe);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onDisconnect);
    if (socket.connected) subscribe();
    else socket.connect();
    return () => {
      if (socket.connected) socket.emit('unsubscribe_task', { task_id: taskId });
      socket.off('task_progress', accept);
      socket.off('connect', subscribe);
      socket.off('disconnect', onDisconnect);
      socket.off('connect_error', onDisconnect);
    };
  }, [taskId, queryClient]);

  const task = taskId ? (query.data ?? null) : null;
  const onTerminalRef = useRef(onTerminal);
  onTerminalRef.current = onTerminal;
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (!task || !isTerminal(task) || reported.current === task.id) return;
    reported.current = task.id;
    onTerminalRef.current?.(task);
  }, [task]);

  return { task, error: taskId && query.error ? query.error.message : null, realtime };
}
