import { Inject, Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { OIDC_STATE_REPOSITORY, type OidcStateRepositoryPort, type UserRecord } from '@gaia/identity/data-access';
import { APP_CONFIG, type AppConfig } from '@gaia/shared/config';
import { CLOCK, DomainError, type Clock } from '@gaia/shared/kernel';
import { AccountsService } from '../accounts/accounts.service';
import { openPendingLogin, pendingLoginKey, sealPendingLogin } from './pending-login-seal';

const STATE_MAX_AGE_MS = 10 * 60 * 1000;
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

/**
 * Popup sign-in through any OpenID Connect provider: authorization code + PKCE (S256), state and nonce.
 * The pending login is stored in Postgres so the callback may land on any gateway replica: keyed by a hash of the
 * state, its PKCE verifier and nonce sealed with a key derived from the state (and SESSION_SECRET when set), so no
 * secret of it is at rest in plain text (pending-login-seal.ts).
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger('Oidc');
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(OIDC_STATE_REPOSITORY) private readonly states: OidcStateRepositoryPort,
    private readonly accounts: AccountsService,
  ) {}

  get enabled(): boolean {
    return !!(this.config.OIDC_ISSUER_URL && this.config.OIDC_CLIENT_ID);
  }

  /** The server's part of the pending logins' seal key ('' without SESSION_SECRET: the state alone keys it). */
  private get serverSecret(): string {
    return this.config.SESSION_SECRET ?? '';
  }

  get providerName(): string | null {
    return this.enabled ? (this.config.OIDC_PROVIDER_NAME ?? 'Single sign-on') : null;
  }

  /** The callback URL: PUBLIC_BASE_URL when set, else the origin the request came to. */
  redirectUri(requestOrigin: string): string {
    return `${(this.config.PUBLIC_BASE_URL ?? requestOrigin).replace(/\/+$/, '')}${OIDC_CALLBACK_PATH}`;
  }

  /** Builds the provider's authorization URL and remembers state → (PKCE verifier, nonce). */
  async start(requestOrigin: string): Promise<string> {
    const cfg = await this.discover();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const redirectUri = this.redirectUri(requestOrigin);
    const sealed = sealPendingLogin({ codeVerifier, nonce }, state, this.serverSecret);
    await this.states.save(pendingLoginKey(state), sealed, redirectUri, this.clock.now());
    return oidc
      .buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        state,
        nonce,
      })
      .toString();
  }

  /** Completes the code flow (state and nonce checked, PKCE verifier sent) and answers the signed-in user. */
  async callback(query: Record<string, unknown>): Promise<UserRecord> {
    const cfg = await this.discover();
    const state = typeof query['state'] === 'string' ? query['state'] : '';
    const stored = state ? await this.states.take(pendingLoginKey(state), this.clock.now(), STATE_MAX_AGE_MS) : null;
    const secrets = stored ? openPendingLogin(stored.sealed, state, this.serverSecret) : null;
    const pending = stored && secrets ? { ...secrets, redirectUri: stored.redirectUri } : null;
    if (!pending) throw DomainError.invalid('The sign-in request expired or was already used. Please try again.', 'oidc_state');
    if (typeof query['error'] === 'string') throw DomainError.unauthorized(`Sign-in was cancelled or refused (${query['error']}).`, 'oidc_refused');
    const url = new URL(pending.redirectUri);
    for (const [k, v] of Object.entries(query)) if (typeof v === 'string') url.searchParams.set(k, v);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(cfg, url, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (e) {
      this.logger.warn(`OIDC code exchange failed: ${(e as Error).message}`);
      throw DomainError.unauthorized('Sign-in with the identity provider failed.', 'oidc_failed');
    }
    const claims = tokens.claims();
    if (!claims) throw DomainError.unauthorized('Sign-in with the identity provider failed.', 'oidc_failed');
    let email = typeof claims['email'] === 'string' ? claims['email'] : null;
    let emailVerified = claims['email_verified'] === true;
    let name = typeof claims['name'] === 'string' ? claims['name'] : null;
    if (!email && tokens.access_token) {
      const info = await oidc.fetchUserInfo(cfg, tokens.access_token, claims.sub).catch(() => null);
      if (info) {
        email = typeof info.email === 'string' ? info.email : null;
        emailVerified = info.email_verified === true;
        name = name ?? (typeof info.name === 'string' ? info.name : null);
      }
    }
    const user = await this.accounts.signInWithOidc({ issuer: claims.iss, subject: claims.sub, email, emailVerified, name });
    return user;
  }

  private discover(): Promise<oidc.Configuration> {
    if (!this.enabled) return Promise.reject(DomainError.notFound('Single sign-on is not configured.', 'oidc_disabled'));
    if (!this.configuration) {
      const issuer = new URL(this.config.OIDC_ISSUER_URL as string);
      const secret = this.config.OIDC_CLIENT_SECRET;
      const insecure = issuer.protocol === 'http:';
      this.configuration = oidc
        .discovery(
          issuer,
          this.config.OIDC_CLIENT_ID as string,
          secret ? { client_secret: secret } : undefined,
          secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
          insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
        )
        .catch((e: Error) => {
          this.configuration = null;
          this.logger.error(`OIDC discovery failed: ${e.message}`);
          throw new DomainError('oidc_unavailable', 'The identity provider is unavailable right now. Please try again.', 503);
        });
    }
    return this.configuration;
  }
}
