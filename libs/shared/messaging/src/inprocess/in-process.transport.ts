import { ClientProxy, Server, type CustomTransportStrategy, type MessageHandler, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { BaseRpcContext } from '@nestjs/microservices';
import { InvalidMessageException } from '@nestjs/microservices/errors/invalid-message.exception';
import { from, isObservable, Observable, throwError, type Subscription } from 'rxjs';

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

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  !!value && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';

function toObservable(value: Observable<unknown> | AsyncIterable<unknown>): Observable<unknown> {
  return isObservable(value) ? value : from(value);
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

/**
 * Custom client: `send` calls the handler and relays every value it produces (streams included). The hot path of
 * every RPC in the platform process (issue #13): no connect step (there is nothing to connect), a plain answer is
 * relayed as is and only a stream goes through an Observable.
 */
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
  override send<TResult = unknown, TInput = unknown>(pattern: unknown, data: TInput): Observable<TResult> {
    if (data === undefined || data === null) return throwError(() => new InvalidMessageException());
    return new Observable<TResult>((observer) => this.publish(this.createPacket(pattern, data), this.createObserver(observer)));
  }
  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const pattern = this.normalizePattern(packet.pattern);
    const handler = this.bus.get(pattern);
    if (!handler) {
      callback({ err: { code: 'service_unavailable', message: `There is no matching message handler for ${pattern}`, status: 503 }, isDisposed: true });
      return () => undefined;
    }
    let sub: Subscription | undefined;
    let closed = false;
    const relay = (result: unknown): void => {
      if (closed) return;
      if (!isObservable(result) && !isAsyncIterable(result)) return callback({ response: result, isDisposed: true });
      sub = toObservable(result).subscribe({
        next: (response) => callback({ response, isDisposed: false }),
        error: (err) => callback({ err, isDisposed: true }),
        complete: () => callback({ isDisposed: true }),
      });
    };
    // Detach from the caller's stack like a real transport would, so handlers never run re-entrantly.
    const timer = setImmediate(() => {
      Promise.resolve()
        .then(() => handler(packet.data, new InProcessContext([pattern])))
        .then(relay, (err: unknown) => {
          if (!closed) callback({ err, isDisposed: true });
        });
    });
    return () => {
      closed = true;
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
