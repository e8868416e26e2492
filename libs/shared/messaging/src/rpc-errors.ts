import { DomainError, isDomainError } from '@gaia/shared/kernel';
import type { RpcErrorPayload } from '@gaia/contracts';

/** Turns anything thrown by a handler into a serialisable error payload. */
export function toRpcError(e: unknown): RpcErrorPayload {
  if (isDomainError(e)) {
    const d = e as DomainError;
    return { code: d.code, message: d.message, status: d.status, details: d.details };
  }
  if (e && typeof e === 'object' && 'code' in e && 'message' in e && 'status' in e) return e as RpcErrorPayload;
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message, status: 500 };
}

/** Turns a received error back into a DomainError (transport failures, no responders included, become 503). */
export function fromRpcError(e: unknown, what: string): DomainError {
  if (isDomainError(e)) return e as DomainError;
  if (e && typeof e === 'object' && 'code' in e && 'message' in e && 'status' in e) {
    const p = e as RpcErrorPayload;
    return new DomainError(p.code, p.message, p.status, p.details);
  }
  const message = e instanceof Error ? e.message : typeof e === 'object' && e && 'message' in e ? String((e as { message: unknown }).message) : String(e);
  // NATS answers a subject nobody serves with its no-responders status (an empty reply): ClientNats raises its
  // EmptyResponseException (not exported by @nestjs/microservices), "There are no subscribers listening to that message".
  if (
    /timeout|no responders|no_responders|There are no subscribers listening|There is no matching message handler|ECONNREFUSED|CONNECTION_REFUSED/i.test(message)
  ) {
    return new DomainError('service_unavailable', `${what} is unavailable right now. Please try again.`, 503, { cause: message });
  }
  return new DomainError('internal', message || `${what} failed`, 500);
}
