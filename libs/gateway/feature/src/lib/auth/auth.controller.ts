import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { linkTokenBodySchema, signInBodySchema, signUpBodySchema, type UserDto } from '@gaia/contracts';
import { AccountsService, EmailLinksService, OidcService, RATE_LIMITER, sha256, type RateLimiter } from '@gaia/identity/feature';
import type { UserRecord } from '@gaia/identity/data-access';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { isDomainError } from '@gaia/shared/kernel';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options';
import { assertUnderRateRules, countRateRules, enforceRateRules } from '../http/rate-limit';
import { publicBaseUrl } from '../http/public-base-url';
import { parseBody } from '../http/validation';
import { UserViewService } from '../account/user-view.service';
import { Auth, CurrentPrincipal } from './auth.guard';
import { SESSION_COOKIE, clearSessionCookies, isSecureRequest, readCookies, setSessionCookies } from './cookies';
import { clientIp, type Principal } from './principal';
import { S } from '../openapi/schemas';

const TOO_MANY_SIGN_INS = 'Too many sign-in attempts. Please try again later.';
export const ACCOUNT_LOCKED = 'Too many failed sign-in attempts for this account. Please try again later.';
/** Per-account counter of failed sign-ins, keyed by a hash of the lower-cased email (no address in the table). */
const accountBucket = (email: unknown) => `auth:account:${sha256(typeof email === 'string' ? email.trim().toLowerCase() : '')}`;

/** Email + password accounts, sessions (httpOnly cookie + CSRF cookie) and popup OpenID Connect sign-in. */
@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly accounts: AccountsService,
    private readonly links: EmailLinksService,
    private readonly oidc: OidcService,
    private readonly users: UserViewService,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('signup')
  @Auth('optional')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account (argon2id), sign in, and mail a link to verify the email address (emailVerified false until opened)' })
  @ApiBody({ schema: S.signUp })
  @ApiResponse({ status: 201, schema: S.userEnvelope })
  @ApiResponse({ status: 400, schema: S.error })
  @ApiResponse({ status: 409, schema: S.error })
  @ApiResponse({ status: 429, schema: S.error })
  async signUp(@Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ user: UserDto }> {
    await enforceRateRules(this.limiter, `auth:ip:${clientIp(req)}`, this.options.authPerIp, TOO_MANY_SIGN_INS);
    const b = parseBody(signUpBodySchema, body, 'Please fill in all fields.');
    const user = await this.accounts.signUp(b);
    const s = await this.accounts.openSession(user.id);
    setSessionCookies(res, s.token, s.csrfToken, s.expiresAt, isSecureRequest(req, this.config.PUBLIC_BASE_URL));
    await this.mailVerification(user, req);
    return { user: await this.users.toDto({ ...user, lastSignInAt: new Date() }) };
  }

  @Post('verify-email')
  @Auth('optional')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify the email address with the token of the mailed link (single use; works signed in or not)' })
  @ApiBody({ schema: S.linkToken })
  @ApiResponse({ status: 200, schema: S.verified })
  @ApiResponse({ status: 400, schema: S.error, description: 'This verification link is invalid, expired or already used. …' })
  @ApiResponse({ status: 429, schema: S.error })
  async verifyEmail(@Body() body: unknown, @Req() req: Request): Promise<{ verified: true; email: string }> {
    await enforceRateRules(this.limiter, `auth:ip:${clientIp(req)}`, this.options.authPerIp, TOO_MANY_SIGN_INS);
    const user = await this.links.verify(parseBody(linkTokenBodySchema, body, 'token is required.').token);
    return { verified: true, email: user.email };
  }

  @Post('verify-email/resend')
  @Auth('session')
  @HttpCode(202)
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'Mail a new verification link to the signed-in user (earlier links stop working); nothing when already verified' })
  @ApiResponse({ status: 202, schema: S.success })
  @ApiResponse({ status: 429, schema: S.error })
  async resendVerification(@CurrentPrincipal() p: Principal, @Req() req: Request): Promise<{ success: true }> {
    if (p.kind !== 'session') throw new Error('unreachable');
    await enforceRateRules(this.limiter, `auth:ip:${clientIp(req)}`, this.options.authPerIp, TOO_MANY_SIGN_INS);
    await this.mailVerification(p.user, req);
    return { success: true };
  }

  @Post('signin')
  @Auth('optional')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with email and password' })
  @ApiBody({ schema: S.signIn })
  @ApiResponse({ status: 200, schema: S.userEnvelope })
  @ApiResponse({ status: 401, schema: S.error, description: 'Invalid email or password.' })
  @ApiResponse({ status: 429, schema: S.error, description: 'Too many attempts from this address, or too many failed sign-ins for this account' })
  async signIn(@Body() body: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<{ user: UserDto }> {
    await enforceRateRules(this.limiter, `auth:ip:${clientIp(req)}`, this.options.authPerIp, TOO_MANY_SIGN_INS);
    const b = parseBody(signInBodySchema, body, 'Please fill in all fields.');
    const bucket = accountBucket(b.email);
    await assertUnderRateRules(this.limiter, bucket, this.options.failedSignInsPerAccount, ACCOUNT_LOCKED, 'account_locked');
    const user = await this.accounts.verifyCredentials(b).catch(async (e: unknown) => {
      if (isDomainError(e) && e.status === 401) await countRateRules(this.limiter, bucket, this.options.failedSignInsPerAccount);
      throw e;
    });
    const s = await this.accounts.openSession(user.id);
    setSessionCookies(res, s.token, s.csrfToken, s.expiresAt, isSecureRequest(req, this.config.PUBLIC_BASE_URL));
    const fresh = (await this.accounts.getUser(user.id)) ?? user;
    return { user: await this.users.toDto(fresh) };
  }

  @Post('signout')
  @Auth('optional')
  @HttpCode(204)
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'Sign out (ends the session, clears the cookies); needs X-CSRF-Token when signed in' })
  @ApiResponse({ status: 204 })
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.accounts.closeSession(readCookies(req)[SESSION_COOKIE]);
    clearSessionCookies(res, isSecureRequest(req, this.config.PUBLIC_BASE_URL));
  }

  @Get('me')
  @Auth('session')
  @ApiCookieAuth('session')
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiResponse({ status: 200, schema: S.userEnvelope })
  @ApiResponse({ status: 401, schema: S.error })
  async me(@CurrentPrincipal() p: Principal): Promise<{ user: UserDto }> {
    if (p.kind !== 'session') throw new Error('unreachable');
    return { user: await this.users.toDto(p.user) };
  }

  @Get('session')
  @Auth('optional')
  @ApiCookieAuth('session')
  @ApiOperation({
    summary:
      'The session state for the web app: the signed-in user, or null when signed out (200 either way; signed-out is a normal state). API clients use GET /api/auth/me',
  })
  @ApiResponse({ status: 200, schema: S.sessionEnvelope })
  async session(@CurrentPrincipal() p: Principal, @Res({ passthrough: true }) res: Response): Promise<{ user: UserDto | null }> {
    res.setHeader('Cache-Control', 'no-store');
    return { user: p.kind === 'session' ? await this.users.toDto(p.user) : null };
  }

  @Get('oidc/start')
  @ApiOperation({ summary: 'Popup sign-in: redirects to the OpenID Connect provider (authorization code + PKCE)' })
  @ApiResponse({ status: 302 })
  @ApiResponse({ status: 404, schema: S.error, description: 'Single sign-on is not configured.' })
  async oidcStart(@Req() req: Request, @Res() res: Response): Promise<void> {
    await enforceRateRules(this.limiter, `auth:ip:${clientIp(req)}`, this.options.authPerIp, TOO_MANY_SIGN_INS);
    const url = await this.oidc.start(`${req.protocol}://${req.get('host')}`);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, url);
  }

  @Get('oidc/callback')
  @ApiOperation({ summary: "Provider redirect: sets the session and answers a page that posts {type:'gaia-auth', ok} to window.opener" })
  @ApiResponse({ status: 200, description: 'text/html' })
  async oidcCallback(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    let ok = false;
    let error: string | null = null;
    try {
      const user = await this.oidc.callback(query);
      const s = await this.accounts.openSession(user.id);
      setSessionCookies(res, s.token, s.csrfToken, s.expiresAt, isSecureRequest(req, this.config.PUBLIC_BASE_URL));
      ok = true;
    } catch (e) {
      error = isDomainError(e) ? e.message : 'Sign-in failed.';
    }
    const message = JSON.stringify({ type: 'gaia-auth', ok, ...(error ? { error } : {}) }).replace(/</g, '\\u003c');
    res
      .status(ok ? 200 : 400)
      .setHeader('Cache-Control', 'no-store')
      .setHeader('Content-Security-Policy', "default-src 'none'; script-src 'unsafe-inline'")
      .type('html')
      .send(
        `<!doctype html><html><head><meta charset="utf-8"><title>Signing in…</title></head><body>` +
          `<p>${ok ? 'Signed in. You can close this window.' : 'Sign-in failed. You can close this window.'}</p>` +
          `<script>(function(){var m=${message};try{if(window.opener){window.opener.postMessage(m,window.location.origin);}}finally{window.close();}})();</script>` +
          `</body></html>`,
      );
  }

  /** A mail failure never fails the request: the user can ask for a new link. */
  private async mailVerification(user: UserRecord, req: Request): Promise<void> {
    try {
      await this.links.sendVerification(user, publicBaseUrl(req, this.config));
    } catch (e) {
      this.logger.warn(`verification mail not sent: ${(e as Error).message}`);
    }
  }
}
