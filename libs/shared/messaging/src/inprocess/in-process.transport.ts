import { ClientProxy, Server, type CustomTransportStrategy, type MessageHandler, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { BaseRpcContext } from '@nestjs/microservices';
import { from, isObservable, Observable, of, type Subscription } from 'rxjs';
import { mergeMap } from 'rxjs/operators';

export const IN_PROCESS_TRANSPORT = Symbol('IN_PROCESS_TRANSPORT');

/** The shared switchboard of one process: patterns → handlers. */
export class InProcessBus {
  private readonly handlers = new Map<string, MessageHandler>();
  register(pattern: string, handler: MessageHandler): void {
    this.handlers.set(pattern, handler);
  }
  unregister(pattern: string): void {
    this.handlers.delete(pattern);
  }
  get(pattern: string): MessageHandler | undefined {
    return this.handlers.get(pattern);
  }
}

export class InProcessContext extends BaseRpcContext<[string]> {
  getPattern(): string {
    return this.args[0];
  }
}

function toObservable(value: unknown): Observable<unknown> {
  if (isObservable(value)) return value;
  if (value && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') return from(value as AsyncIterable<unknown>);
  return of(value);
}

/** Custom @nestjs/microservices server: handlers are called directly in this process. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  override transportId = IN_PROCESS_TRANSPORT;
  constructor(private readonly bus: InProcessBus) {
    super();
  }
  listen(callback: () => void): void {
    for (const [pattern, handler] of this.getHandlers()) this.bus.register(pattern, handler);
    callback();
  }
  close(): void {
    for (const pattern of this.getHandlers().keys()) this.bus.unregister(pattern);
  }
  on(): void {
    /* no transport-level events */
  }
  unwrap<T>(): T {
    return this.bus as unknown as T;
  }
}

/** Custom client: `send` calls the handler and relays every value it produces (streams included). */
export class InProcessClient extends ClientProxy {
  constructor(private readonly bus: InProcessBus) {
    super();
  }
  connect(): Promise<void> {
    return Promise.resolve();
  }
  close(): void {
    /* nothing to close */
  }
  unwrap<T>(): T {
    return this.bus as unknown as T;
  }
  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const pattern = this.normalizePattern(packet.pattern);
    const handler = this.bus.get(pattern);
    if (!handler) {
      callback({ err: { code: 'service_unavailable', message: `There is no matching message handler for ${pattern}`, status: 503 }, isDisposed: true });
      return () => undefined;
    }
    let sub: Subscription | undefined;
    // Detach from the caller's stack like a real transport would, so handlers never run re-entrantly.
    const timer = setImmediate(() => {
      sub = from(Promise.resolve().then(() => handler(packet.data, new InProcessContext([pattern]))))
        .pipe(mergeMap((r) => toObservable(r)))
        .subscribe({
          next: (response) => callback({ response, isDisposed: false }),
          error: (err) => callback({ err, isDisposed: true }),
          complete: () => callback({ isDisposed: true }),
        });
    });
    return () => {
      clearImmediate(timer);
      sub?.unsubscribe();
    };
  }
  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const pattern = this.normalizePattern(packet.pattern);
    const handler = this.bus.get(pattern);
    if (!handler) return undefined as T;
    return (await handler(packet.data, new InProcessContext([pattern]))) as T;
  }
}
