import type { Request } from 'express';
import type { UserRecord } from '@gaia/identity/data-access';
import type { ApiKeyPrincipal } from '@gaia/identity/feature';

/** Who makes a request: a signed-in user (session), an API key (with its owner), or nobody. */
export type Principal =
  { kind: 'session'; user: UserRecord; csrfToken: string } | { kind: 'key'; key: ApiKeyPrincipal; user: UserRecord | null } | { kind: 'anonymous' };

export type GatewayRequest = Request & { principal?: Principal; id?: string };

export function principalOf(req: Request): Principal {
  return (req as GatewayRequest).principal ?? { kind: 'anonymous' };
}

/** `{uid, email}` for the agents service (null = anonymous or the public key). */
export function viewerOf(p: Principal): { uid: string; email: string } | null {
  if (p.kind === 'session') return { uid: p.user.id, email: p.user.email.toLowerCase() };
  if (p.kind === 'key' && p.user) return { uid: p.user.id, email: p.user.email.toLowerCase() };
  return null;
}

export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** Whose requests count together for a per-client limit: the account (session or its API keys), else the client IP. */
export function callerBucket(p: Principal, req: Request): string {
  const viewer = viewerOf(p);
  return viewer ? `user:${viewer.uid}` : `ip:${clientIp(req)}`;
}
