import type { MessagingClient } from './transport.factory';
import { catchError, lastValueFrom, Observable, throwError } from 'rxjs';
import { rpcDefinition, type RpcRequest, type RpcResponse, type StreamRpcName, type UnaryRpcName } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';
import { rpcPattern } from './patterns';
import { fromRpcError } from './rpc-errors';
import { idleTimeout } from './idle-timeout';
import { InProcessClient } from './inprocess/in-process.transport';

/** Typed calls between services, over whatever transport the app runs on. */
export interface RpcClient {
  call<K extends UnaryRpcName>(name: K, request: RpcRequest<K>, opts?: { timeoutMs?: number }): Promise<RpcResponse<K>>;
  stream<K extends StreamRpcName>(name: K, request: RpcRequest<K>, opts?: { timeoutMs?: number }): Observable<RpcResponse<K>>;
}

/**
 * The request as sent: parsed by its schema (an invalid one fails here, before the transport), except in process,
 * where the serving side's parse of the same schema in the same process (messaging.host) answers the same
 * DomainError — parsing it twice was a cost of every call on the platform's request path (issue #13).
 */
function checked<K extends UnaryRpcName | StreamRpcName>(
  def: ReturnType<typeof rpcDefinition>,
  request: RpcRequest<K>,
  servedInProcess: boolean,
): { data: unknown } | { error: DomainError } {
  if (servedInProcess) return { data: request };
  const req = def.request.safeParse(request);
  return req.success
    ? { data: req.data }
    : { error: DomainError.invalid(req.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')) };
}

export class TransportRpcClient implements RpcClient {
  private readonly servedInProcess: boolean;

  constructor(
    private readonly client: MessagingClient,
    private readonly defaultTimeoutMs: number,
    private readonly namespace = 'gaia',
  ) {
    this.servedInProcess = (client as unknown) instanceof InProcessClient;
  }

  async call<K extends UnaryRpcName>(name: K, request: RpcRequest<K>, opts: { timeoutMs?: number } = {}): Promise<RpcResponse<K>> {
    const def = rpcDefinition(name);
    const req = checked(def, request, this.servedInProcess);
    if ('error' in req) throw req.error;
    const ms = opts.timeoutMs ?? def.timeoutMs ?? this.defaultTimeoutMs;
    try {
      return (await lastValueFrom(this.client.send(rpcPattern(name, this.namespace), req.data).pipe(idleTimeout(ms)))) as RpcResponse<K>;
    } catch (e) {
      throw fromRpcError(e, `The ${def.service} service`);
    }
  }

  stream<K extends StreamRpcName>(name: K, request: RpcRequest<K>, opts: { timeoutMs?: number } = {}): Observable<RpcResponse<K>> {
    const def = rpcDefinition(name);
    const req = checked(def, request, this.servedInProcess);
    if ('error' in req) return throwError(() => req.error);
    const ms = opts.timeoutMs ?? def.timeoutMs ?? this.defaultTimeoutMs;
    return this.client.send(rpcPattern(name, this.namespace), req.data).pipe(
      idleTimeout(ms),
      catchError((e) => throwError(() => fromRpcError(e, `The ${def.service} service`))),
    ) as Observable<RpcResponse<K>>;
  }
}
