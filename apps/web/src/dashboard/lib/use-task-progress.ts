import { useEffect, useRef, useState } from 'react';
import { getTaskStatus } from '../../api/account-api';
import type { IngestionTaskDto } from '@gaia/contracts';
import { getSocket } from './realtime';
import { STATUS_POLL_MS } from './rules';

/** Safety-net poll while the socket is connected (an event may be missed across a reconnect). */
const CONNECTED_POLL_MS = 10_000;

export interface TaskProgress {
  task: IngestionTaskDto | null;
  /** 'Failed to fetch status' when a poll fails; cleared by the next good answer. */
  error: string | null;
  realtime: boolean;
}

/**
 * Follows a processing task: Socket.IO `subscribe_task` → `task_progress`, and GET /api/documents/status every
 * 2 s while the socket is unavailable (spec §4/§9). Stops at COMPLETED or FAILED.
 */
export function useTaskProgress(taskId: string | null | undefined, onTerminal?: (task: IngestionTaskDto) => void): TaskProgress {
  const [task, setTask] = useState<IngestionTaskDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [realtime, setRealtime] = useState(false);
  const terminal = useRef(false);
  const onTerminalRef = useRef(onTerminal);
  onTerminalRef.current = onTerminal;

  useEffect(() => {
    setTask(null);
    setError(null);
    terminal.current = false;
    if (!taskId) return;
    let live = true;
    const accept = (next: IngestionTaskDto) => {
      if (!live || terminal.current || next.id !== taskId) return;
      setTask(next);
      setError(null);
      if (next.status === 'COMPLETED' || next.status === 'FAILED') {
        terminal.current = true;
        onTerminalRef.current?.(next);
      }
    };
    const poll = async () => {
      if (terminal.current) return;
      try {
        const { task: t } = await getTaskStatus(taskId);
        accept({ ...t, id: t.id ?? taskId });
      } catch (err) {
        if (live) setError(err instanceof Error ? err.message : 'Failed to fetch status');
      }
    };

    const socket = getSocket();
    const subscribe = () => {
      socket.emit('subscribe_task', { task_id: taskId });
      if (live) setRealtime(true);
    };
    const onDisconnect = () => live && setRealtime(false);
    socket.on('task_progress', accept);
    socket.on('connect', subscribe);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onDisconnect);
    if (socket.connected) subscribe();
    else socket.connect();

    void poll();
    let timer: ReturnType<typeof setInterval> | null = null;
    let currentMs = 0;
    const schedule = () => {
      const ms = socket.connected ? CONNECTED_POLL_MS : STATUS_POLL_MS;
      if (ms === currentMs && timer) return;
      if (timer) clearInterval(timer);
      currentMs = ms;
      timer = setInterval(() => {
        if (terminal.current) {
          if (timer) clearInterval(timer);
          return;
        }
        schedule();
        void poll();
      }, ms);
    };
    schedule();
    const reschedule = () => schedule();
    socket.on('connect', reschedule);
    socket.on('disconnect', reschedule);

    return () => {
      live = false;
      if (timer) clearInterval(timer);
      if (socket.connected) socket.emit('unsubscribe_task', { task_id: taskId });
      socket.off('task_progress', accept);
      socket.off('connect', subscribe);
      socket.off('connect', reschedule);
      socket.off('disconnect', onDisconnect);
      socket.off('disconnect', reschedule);
      socket.off('connect_error', onDisconnect);
    };
  }, [taskId]);

  return { task, error, realtime };
}
