import type { SchemaBundle } from '@gaia/shared/database';
import { IdentityInit1767512000000 } from './migrations/1767512000000-identity-init';
import { IdentityEmailVerification1779500000000 } from './migrations/1779500000000-identity-email-verification';
import { IdentityErasure1795490000100 } from './migrations/1795490000100-identity-erasure';
import { IdentityCredentialChangeNotify1795700000000 } from './migrations/1795700000000-identity-credential-change-notify';
import { IdentityOidcStateSealed1795800000006 } from './migrations/1795800000006-identity-oidc-state-sealed';

export const identitySchema: SchemaBundle = {
  name: 'identity',
  entities: [],
  migrations: [
    IdentityInit1767512000000,
    IdentityEmailVerification1779500000000,
    IdentityErasure1795490000100,
    IdentityCredentialChangeNotify1795700000000,
    IdentityOidcStateSealed1795800000006,
  ],
};
