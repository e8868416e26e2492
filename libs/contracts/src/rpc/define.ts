import type { z } from 'zod';
import type { ConsumerName } from '../services';

/**
 * One request/response call between services (`<domain>.<call>.v<n>`, never renamed). A breaking change is a
 * new version; a call with no production caller left is removed with its handler (tools/messaging-wiring.spec.ts
 * checks both directions).
 * `stream: true` calls answer a sequence of `response` values (e.g. translation events).
 */
export interface RpcDefinition<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly service: ConsumerName;
  readonly request: Req;
  readonly response: Res;
  readonly stream?: boolean;
  /** Milliseconds the caller waits (for streams: between two values). */
  readonly timeoutMs?: number;
  readonly description: string;
}

export function defineRpc<Req extends z.ZodType, Res extends z.ZodType>(
  def: RpcDefinition<Req, Res> & { stream: true },
): RpcDefinition<Req, Res> & { stream: true };
export function defineRpc<Req extends z.ZodType, Res extends z.ZodType>(
  def: RpcDefinition<Req, Res> & { stream?: false },
): RpcDefinition<Req, Res> & { stream?: false };
export function defineRpc(def: RpcDefinition): RpcDefinition {
  return def;
}

export type RpcRegistry = Record<string, RpcDefinition>;

/** Error shape that crosses the wire; the caller turns it back into a DomainError. */
export interface RpcErrorPayload {
  code: string;
  message: string;
  status: number;
  details?: unknown;
}
