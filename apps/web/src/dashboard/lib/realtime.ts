import { io, type Socket } from 'socket.io-client';
import type { AgentDto, IngestionTaskDto } from '@gaia/contracts';

/** Server → client events of docs/api-surface.md. */
export interface ServerEvents {
  task_progress: (task: IngestionTaskDto) => void;
  agent_updated: (agent: AgentDto) => void;
}
export interface ClientEvents {
  subscribe_task: (payload: { task_id: string }) => void;
  unsubscribe_task: (payload: { task_id: string }) => void;
}
export type GaiaSocket = Socket<ServerEvents, ClientEvents>;

let socket: GaiaSocket | null = null;
let factory: () => GaiaSocket = () =>
  io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'], reconnectionDelayMax: 10_000 }) as GaiaSocket;

/** One shared same-origin connection (session cookie), opened on first use. */
export function getSocket(): GaiaSocket {
  socket ??= factory();
  return socket;
}

/** Tests replace the connection (e.g. with one that never connects, to exercise polling). */
export function setSocketFactory(next: () => GaiaSocket): void {
  socket?.disconnect();
  socket = null;
  factory = next;
}

export function closeSocket(): void {
  socket?.disconnect();
  socket = null;
}
