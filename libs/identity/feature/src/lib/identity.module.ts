import { DynamicModule, Module } from '@nestjs/common';
import {
  ACCOUNT_ERASURE_REPOSITORY,
  API_KEY_REPOSITORY,
  CREDENTIAL_CHANGES,
  EMAIL_TOKEN_REPOSITORY,
  IDEMPOTENCY_REPOSITORY,
  OIDC_STATE_REPOSITORY,
  PostgresAccountErasureRepository,
  PostgresApiKeyRepository,
  PostgresCredentialChanges,
  PostgresEmailTokenRepository,
  PostgresIdempotencyRepository,
  PostgresOidcStateRepository,
  PostgresRateCounterRepository,
  PostgresSessionRepository,
  PostgresSettingRepository,
  PostgresUserRepository,
  RATE_COUNTER_REPOSITORY,
  SESSION_REPOSITORY,
  SETTING_REPOSITORY,
  USER_REPOSITORY,
} from '@gaia/identity/data-access';
import { MailModule } from '@gaia/shared/mail';
import { AccountsService } from './accounts/accounts.service';
import { ApiKeyAuthentication } from './api-keys/api-key-authentication';
import { ApiKeysService } from './api-keys/api-keys.service';
import { EmailLinksService } from './email-links/email-links.service';
import { Argon2PasswordHasher } from './accounts/argon2-password-hasher.adapter';
import { IdempotencyService } from './idempotency/idempotency.service';
import { DEFAULT_IDENTITY_OPTIONS, IDENTITY_OPTIONS, PASSWORD_HASHER, RATE_LIMITER, type IdentityOptions } from './identity.tokens';
import { OidcService } from './oidc/oidc.service';
import { PostgresRateLimiter } from './rate-limit/postgres-rate-limiter.adapter';

/**
 * Identity (runs inside the gateway): users, argon2id passwords, sessions, API keys, OIDC sign-in,
 * idempotency records and shared rate-limit counters. Needs CoreModule with `identitySchema`.
 */
@Module({})
export class IdentityModule {
  static forRoot(options: Partial<IdentityOptions> = {}): DynamicModule {
    const o: IdentityOptions = { ...DEFAULT_IDENTITY_OPTIONS, ...options };
    return {
      module: IdentityModule,
      imports: [MailModule],
      providers: [
        { provide: IDENTITY_OPTIONS, useValue: o },
        { provide: PASSWORD_HASHER, useValue: new Argon2PasswordHasher(o.argon2MemoryKiB, o.argon2TimeCost) },
        { provide: RATE_LIMITER, useClass: PostgresRateLimiter },
        { provide: USER_REPOSITORY, useClass: PostgresUserRepository },
        { provide: SESSION_REPOSITORY, useClass: PostgresSessionRepository },
        { provide: API_KEY_REPOSITORY, useClass: PostgresApiKeyRepository },
        { provide: IDEMPOTENCY_REPOSITORY, useClass: PostgresIdempotencyRepository },
        { provide: RATE_COUNTER_REPOSITORY, useClass: PostgresRateCounterRepository },
        { provide: OIDC_STATE_REPOSITORY, useClass: PostgresOidcStateRepository },
        { provide: SETTING_REPOSITORY, useClass: PostgresSettingRepository },
        { provide: EMAIL_TOKEN_REPOSITORY, useClass: PostgresEmailTokenRepository },
        { provide: ACCOUNT_ERASURE_REPOSITORY, useClass: PostgresAccountErasureRepository },
        { provide: CREDENTIAL_CHANGES, useClass: PostgresCredentialChanges },
        ApiKeyAuthentication,
        EmailLinksService,
        AccountsService,
        ApiKeysService,
        IdempotencyService,
        OidcService,
      ],
      exports: [
        AccountsService,
        ApiKeysService,
        ApiKeyAuthentication,
        IdempotencyService,
        OidcService,
        EmailLinksService,
        RATE_LIMITER,
        IDENTITY_OPTIONS,
        ACCOUNT_ERASURE_REPOSITORY,
      ],
    };
  }
}
