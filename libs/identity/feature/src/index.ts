export * from './lib/identity.module';
export * from './lib/identity.tokens';
export * from './lib/accounts.service';
export * from './lib/api-keys.service';
export * from './lib/idempotency.service';
export * from './lib/oidc.service';
export * from './lib/tokens.util';
export * from './lib/argon2-password-hasher.adapter';
export { identitySchema } from '@gaia/identity/data-access';
