export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string | null;
  fullName: string | null;
  displayName: string | null;
  oidcIssuer: string | null;
  oidcSubject: string | null;
  createdAt: Date;
  lastSignInAt: Date | null;
  /** When the user proved the address (verification link, or an identity provider's verified claim); null = unverified. */
  emailVerifiedAt: Date | null;
}

export interface SessionRecord {
  id: string;
  userId: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

export type ApiKeyKind = 'user' | 'public';

export interface ApiKeyRecord {
  id: string;
  userId: string | null;
  kind: ApiKeyKind;
  name: string;
  prefix: string;
  secretHash: string;
  rateLimit: number;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface IdempotencyRecord {
  requestHash: string;
  state: 'pending' | 'done';
  status: number | null;
  body: unknown;
}
