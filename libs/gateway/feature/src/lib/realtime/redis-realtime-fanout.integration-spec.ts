import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import { LocalRealtimeFanout, type RealtimeFanoutPort } from './realtime-fanout.port';
import { RedisRealtimeFanout } from './redis-realtime-fanout.adapter';

const REDIS_URL = process.env['TEST_REDIS_URL'] || 'redis://127.0.0.1:6379';

/** One "gateway replica": a Socket.IO server on port 0 whose sockets join the room named in their auth. */
async function replica(fanout: RealtimeFanoutPort): Promise<{ io: Server; url: string; close: () => Promise<void> }> {
  const http: HttpServer = createServer();
  const server = new Server(http);
  fanout.attach(server);
  server.on('connection', (s) => void s.join(String((s.handshake.auth as { room?: string }).room)));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    io: server,
    url,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await fanout.close();
    },
  };
}

async function connect(url: string, room: string): Promise<Socket> {
  const s = io(url, { transports: ['websocket'], auth: { room }, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => s.once('connect', () => resolve()).once('connect_error', reject));
  return s;
}

describe('REALTIME_FANOUT: Socket.IO pushes across gateway replicas', () => {
  it('with Redis, a push emitted on one replica reaches a browser connected to the other', async () => {
    const a = await replica(new RedisRealtimeFanout(REDIS_URL));
    const b = await replica(new RedisRealtimeFanout(REDIS_URL));
    const room = `user:${randomUUID()}`;
    const client = await connect(b.url, room);
    try {
      const received = new Promise<unknown>((r) => client.once('task_progress', r));
      // The adapter's subscription is asynchronous: repeat the push until the other replica relays it.
      const pushes = setInterval(() => a.io.to(room).emit('task_progress', { id: 't1', progress: 40 }), 50);
      try {
        expect(await received).toEqual({ id: 't1', progress: 40 });
      } finally {
        clearInterval(pushes);
      }
    } finally {
      client.close();
      await a.close();
      await b.close();
    }
  });

  it('without Redis (one process), the local fan-out keeps the in-memory adapter and its pushes reach its sockets', async () => {
    const a = await replica(new LocalRealtimeFanout());
    const room = `user:${randomUUID()}`;
    const client = await connect(a.url, room);
    try {
      expect(a.io.of('/').adapter.constructor.name).toBe('Adapter');
      const received = new Promise<unknown>((r) => client.once('task_progress', r));
      a.io.to(room).emit('task_progress', { id: 't2' });
      expect(await received).toEqual({ id: 't2' });
    } finally {
      client.close();
      await a.close();
    }
  });
});
