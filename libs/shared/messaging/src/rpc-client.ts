import type { MessagingClient } from './transport.factory';
import { catchError, lastValueFrom, Observable, throwError } from 'rxjs';
import { rpcDefinition, type RpcRequest, type RpcResponse, type StreamRpcName, type UnaryRpcName } from '@gaia/contracts';
import { DomainError } from '@gaia/shared/kernel';
import { rpcPattern } from './patterns';
import { fromRpcError } from './rpc-errors';
import { idleTimeout } from './idle-timeout';

/** Typed calls between services, over whatever transport the app runs on. */
export interface RpcClient {
  call<K extends UnaryRpcName>(name: K, request: RpcRequest<K>, opts?: { timeoutMs?: number }): Promise<RpcResponse<K>>;
  stream<K extends StreamRpcName>(name: K, request: RpcRequest<K>, opts?: { timeoutMs?: number }): Observable<RpcResponse<K>>;
}

export class TransportRpcClient implements RpcClient {
  constructor(
    private readonly client: MessagingClient,
    private readonly defaultTimeoutMs: number,
    private readonly namespace = 'gaia',
  ) {}

  async call<K extends UnaryRpcName>(name: K, request: RpcRequest<K>, opts: { timeoutMs?: number } = {}): Promise<RpcResponse<K>> {
    const def = rpcDefinition(name);
    const req = def.request.safeParse(request);
    if (!req.success) throw DomainError.invalid(req.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; '));
    const ms = opts.timeoutMs ?? def.timeoutMs ?? this.defaultTimeoutMs;
    try {
      return (await lastValueFrom(this.client.send(rpcPattern(name, this.namespace), req.data).pipe(idleTimeout(ms)))) as RpcResponse<K>;
    } catch (e) {
      throw fromRpcError(e, `The ${def.service} service`);
    }
  }

  stream<K extends StreamRpcName>(name: K, request: RpcRequest<K>, opts: { timeoutMs?: number } = {}): Observable<RpcResponse<K>> {
    const def = rpcDefinition(name);
    const req = def.request.safeParse(request);
    if (!req.success) return throwError(() => DomainError.invalid(req.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')));
    const ms = opts.timeoutMs ?? def.timeoutMs ?? this.defaultTimeoutMs;
    return this.client.send(rpcPattern(name, this.namespace), req.data).pipe(
      idleTimeout(ms),
      catchError((e) => throwError(() => fromRpcError(e, `The ${def.service} service`))),
    ) as Observable<RpcResponse<K>>;
  }
}
