import { CanActivate, ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccountsService, ApiKeyAuthentication } from '@gaia/identity/feature';
import { DomainError } from '@gaia/shared/kernel';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, readCookies } from './cookies';
import { principalOf, type GatewayRequest, type Principal } from './principal';
import { safeEqual } from '@gaia/identity/feature';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { Inject } from '@nestjs/common';

/** How an endpoint may be called: 'session' (signed in), 'key' (X-API-Key or session), 'optional' (anyone). */
export type AuthMode = 'session' | 'key' | 'optional';
export const AUTH_MODE = 'gaia:auth-mode';
export const Auth = (mode: AuthMode) => SetMetadata(AUTH_MODE, mode);

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => principalOf(ctx.switchToHttp().getRequest()));

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CSRF_ERROR = 'Invalid or missing CSRF token.';
export const CROSS_SITE_ERROR = 'Cross-site request refused.';

/**
 * Resolves the caller (session cookie or X-API-Key) and enforces the endpoint's mode and CSRF: an unsafe
 * request authenticated by the session cookie must echo the `gaia_csrf` cookie in `X-CSRF-Token`, and the
 * token must be the session's own.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeyAuthentication,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Browsers send Origin on cross-site POSTs (e.g. a form posting credentials: login CSRF); same-origin only. */
  private checkOrigin(req: GatewayRequest): void {
    const origin = req.headers.origin;
    if (!origin || !UNSAFE.has(req.method)) return;
    let host = '';
    try {
      host = new URL(origin).host;
    } catch {
      /* "null" or garbage */
    }
    const allowed = [req.headers.host, this.config.PUBLIC_BASE_URL ? new URL(this.config.PUBLIC_BASE_URL).host : undefined];
    if (!host || !allowed.includes(host)) throw DomainError.forbidden(CROSS_SITE_ERROR, 'cross_site');
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const mode = this.reflector.getAllAndOverride<AuthMode | undefined>(AUTH_MODE, [ctx.getHandler(), ctx.getClass()]);
    if (!mode) return true;
    const req = ctx.switchToHttp().getRequest<GatewayRequest>();
    this.checkOrigin(req);
    const apiKey = req.headers['x-api-key'];
    if (mode === 'key' && typeof apiKey === 'string' && apiKey) {
      // Cached per process (by the key's hash), dropped on any replica's change of the key or its owner.
      const { key, user } = await this.keys.authenticate(apiKey);
      if (key.kind === 'user' && !user) throw DomainError.unauthorized('Invalid API key.', 'invalid_api_key');
      req.principal = { kind: 'key', key, user };
      return true;
    }
    const cookies = readCookies(req);
    const session = await this.accounts.resolveSession(cookies[SESSION_COOKIE]);
    if (session) {
      req.principal = { kind: 'session', user: session.user, csrfToken: session.csrfToken };
      if (UNSAFE.has(req.method)) {
        const header = req.headers[CSRF_HEADER];
        const cookie = cookies[CSRF_COOKIE];
        if (typeof header !== 'string' || !cookie || !safeEqual(header, cookie) || !safeEqual(header, session.csrfToken)) {
          throw DomainError.forbidden(CSRF_ERROR, 'csrf');
        }
      }
      return true;
    }
    req.principal = { kind: 'anonymous' };
    if (mode === 'session') throw DomainError.unauthorized('Please sign in.', 'unauthorized');
    if (mode === 'key') throw DomainError.unauthorized('Missing API key. Send it in the X-API-Key header.', 'api_key_required');
    return true;
  }
}
