import { createParamDecorator, Inject, Logger, type ExecutionContext, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, SubscribeMessage, WebSocketGateway, WebSocketServer, type OnGatewayInit } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import type { Subscription } from 'rxjs';
import type { IngestionTaskDto } from '@gaia/contracts';
import type { UserRecord } from '@gaia/identity/data-access';
import { AccountsService } from '@gaia/identity/feature';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { DomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { SESSION_COOKIE } from '../auth/cookies';
import { errorResponse } from '../http/domain-error.filter';
import { assertFieldLimits } from '../http/field-limits.pipe';
import { TranslateService } from '../translate/translate.service';
import { REALTIME_FANOUT, type RealtimeFanoutPort } from './realtime-fanout.port';

/**
 * The message body, outside the HTTP pipes (a pipe's exception would never reach the client's ack):
 * each handler validates inside its try (field limits included) and acknowledges the error.
 */
const SocketMessage = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => ctx.switchToWs().getData());

export const userRoom = (uid: string) => `user:${uid}`;
export const emailRoom = (email: string) => `email:${email.toLowerCase()}`;

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

interface SocketData {
  user: UserRecord;
  translations: Map<string, Subscription>;
}

/**
 * Socket.IO at /socket.io: the handshake is authenticated by the session cookie (and a cross-site Origin is
 * refused); each socket joins its user room and email room only, so `task_progress` / `agent_updated` reach
 * whoever is owner or editor when the push happens (membership changes apply to open sockets at once). The
 * fan-out port (REALTIME_FANOUT: the Redis adapter with REDIS_URL) lets any replica reach any browser.
 */
@WebSocketGateway({ path: '/socket.io', serveClient: false })
export class RealtimeGateway implements OnGatewayInit, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Realtime');
  private closing = false;
  @WebSocketServer() server!: Server;

  constructor(
    private readonly accounts: AccountsService,
    private readonly translations: TranslateService,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REALTIME_FANOUT) private readonly fanout: RealtimeFanoutPort,
  ) {}

  afterInit(server: Server): void {
    this.fanout.attach(server);
    server.use((socket, next) => {
      void this.authenticate(socket).then(
        () => next(),
        (e: unknown) => next(new Error(e instanceof Error ? e.message : 'unauthorized')),
      );
    });
    server.on('connection', (socket: Socket) => {
      const data = socket.data as SocketData;
      void socket.join([userRoom(data.user.id), emailRoom(data.user.email)]);
      socket.on('disconnect', () => {
        for (const s of data.translations.values()) s.unsubscribe();
        data.translations.clear();
      });
    });
  }

  /** From here on the app is closing: late events (jobs finishing) are not pushed any more. */
  onModuleDestroy(): void {
    this.closing = true;
  }

  /** After Nest closed the Socket.IO server (and with it the adapter's subscriptions). */
  async onApplicationShutdown(): Promise<void> {
    await this.fanout.close();
  }

  private async authenticate(socket: Socket): Promise<void> {
    const headers = socket.handshake.headers;
    const origin = headers.origin;
    if (origin) {
      let originHost = '';
      try {
        originHost = new URL(origin).host;
      } catch {
        /* invalid */
      }
      const allowed = [headers.host, this.config.PUBLIC_BASE_URL ? new URL(this.config.PUBLIC_BASE_URL).host : undefined].filter(Boolean);
      if (!allowed.includes(originHost)) throw new Error('cross-origin socket refused');
    }
    const session = await this.accounts.resolveSession(cookieValue(headers.cookie, SESSION_COOKIE));
    if (!session) throw new Error('unauthorized');
    (socket.data as SocketData).user = session.user;
    (socket.data as SocketData).translations = new Map();
  }

  /**
   * Answers the current state of a task the user may see (owner or editor). Later progress reaches the user's
   * sockets through the user/email rooms while the user is still owner or editor; no per-task room is joined.
   */
  @SubscribeMessage('subscribe_task')
  async subscribeTask(@ConnectedSocket() socket: Socket, @SocketMessage() body: { task_id?: unknown }): Promise<{ ok: boolean; error?: string }> {
    const user = (socket.data as SocketData).user;
    const taskId = typeof body?.task_id === 'string' ? body.task_id : '';
    try {
      assertFieldLimits(body);
      if (!taskId) throw DomainError.invalid('task_id is required.');
      const t = await this.rpc.call('ingestion.get-task.v1', { taskId });
      if (t.ownerId !== user.id)
        await this.rpc.call('agents.access.v1', { agentId: t.agentId, viewer: { uid: user.id, email: user.email.toLowerCase() }, need: 'edit' });
      socket.emit('task_progress', t.task satisfies IngestionTaskDto);
      return { ok: true };
    } catch (e) {
      const { status, body: b } = errorResponse(e);
      return { ok: false, error: status === 403 || status === 404 ? 'Task not found.' : b.error };
    }
  }

  /** Acknowledged for clients of the protocol (nothing to leave: pushes follow membership, see subscribe_task). */
  @SubscribeMessage('unsubscribe_task')
  unsubscribeTask(): { ok: true } {
    return { ok: true };
  }

  /** Translation over the socket (session caller): `translation_event` objects, ending with complete or error. */
  @SubscribeMessage('translate')
  async translate(@ConnectedSocket() socket: Socket, @SocketMessage() body: unknown): Promise<{ ok: boolean; error?: string }> {
    const data = socket.data as SocketData;
    const ip = socket.handshake.address;
    try {
      const t = await this.translations.prepare({ kind: 'session', user: data.user, csrfToken: '' }, ip, { ...(body as object), stream: true });
      const id = t.requestId;
      const sub = t.events.subscribe({
        next: (e) => socket.emit('translation_event', e),
        error: (e) => {
          socket.emit('translation_event', { type: 'error', message: errorResponse(e).body.error });
          data.translations.delete(id);
        },
        complete: () => data.translations.delete(id),
      });
      if (!sub.closed) data.translations.set(id, sub);
      return { ok: true };
    } catch (e) {
      const message = errorResponse(e).body.error;
      socket.emit('translation_event', { type: 'error', message });
      return { ok: false, error: message };
    }
  }

  /** Pushes to every socket of the given rooms (once per socket, on every replica through the adapter). */
  emit(rooms: string[], event: string, payload: unknown): void {
    if (!this.server || rooms.length === 0 || this.closing) return;
    try {
      this.server.to(rooms).emit(event, payload);
    } catch (e) {
      this.logger.warn(`push ${event} failed: ${(e as Error).message}`);
    }
  }
}
