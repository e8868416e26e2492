import type { Server } from 'socket.io';

/**
 * How a Socket.IO push reaches browsers connected to another gateway replica: a Socket.IO adapter over a
 * broker (Redis with REDIS_URL), or nothing for a single process.
 */
export interface RealtimeFanoutPort {
  /** Installs the cross-replica adapter on the server (before any socket connects). */
  attach(server: Server): void;
  /** Releases the broker connections, after the Socket.IO server closed. */
  close(): Promise<void>;
}

export const REALTIME_FANOUT = Symbol('REALTIME_FANOUT');

/** One process (no REDIS_URL): Socket.IO's in-memory adapter already reaches every socket. */
export class LocalRealtimeFanout implements RealtimeFanoutPort {
  attach(): void {
    // The default in-memory adapter stays.
  }

  async close(): Promise<void> {
    // Nothing was opened.
  }
}
