import { Logger } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Server } from 'socket.io';
import type { RealtimeFanoutPort } from './realtime-fanout.port';

/** Attempts per Redis command before it fails (a push is best effort: never queue behind a dead Redis for long). */
const REDIS_MAX_RETRIES_PER_REQUEST = 2;
/** Prefix of the adapter's Redis channels (shared by every replica of this deployment). */
export const SOCKET_IO_REDIS_KEY = 'gaia-socket.io';

/** The Socket.IO Redis adapter (REDIS_URL): a publish and a subscribe connection shared by every replica. */
export class RedisRealtimeFanout implements RealtimeFanoutPort {
  private readonly logger = new Logger('Realtime');
  private connections: Redis[] = [];

  constructor(private readonly url: string) {}

  attach(server: Server): void {
    const pub = new Redis(this.url, { lazyConnect: false, maxRetriesPerRequest: REDIS_MAX_RETRIES_PER_REQUEST });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (e) => this.logger.warn(`redis: ${e.message}`));
    // The adapter does not handle a failed publish (Redis down): log it instead of an unhandled rejection.
    const publish = pub.publish.bind(pub) as (...a: unknown[]) => Promise<number>;
    (pub as unknown as { publish: (...a: unknown[]) => Promise<number> }).publish = (...a: unknown[]) => {
      const p = publish(...a);
      p.catch((e: Error) => this.logger.warn(`Socket.IO broadcast through Redis failed: ${e.message}`));
      return p;
    };
    this.connections = [pub, sub];
    server.adapter(createAdapter(pub, sub, { key: SOCKET_IO_REDIS_KEY }));
    this.logger.log('Socket.IO Redis adapter enabled');
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((r) => r.quit().catch(() => r.disconnect())));
    this.connections = [];
  }
}
