import { Inject, Injectable } from '@nestjs/common';
import { SESSION_REPOSITORY, USER_REPOSITORY, type SessionRepositoryPort, type UserRecord, type UserRepositoryPort } from '@gaia/identity/data-access';
import { CLOCK, DomainError, newId, type Clock } from '@gaia/shared/kernel';
import { IDENTITY_OPTIONS, PASSWORD_HASHER, type IdentityOptions, type PasswordHasher } from '../identity.tokens';
import { assertAcceptablePassword } from './password-policy';
import { randomSecret, sha256 } from '../tokens.util';

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const INVALID_EMAIL = 'Please enter a valid email address.';

export interface IssuedSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface SessionPrincipal {
  user: UserRecord;
  sessionId: string;
  csrfToken: string;
}

const clean = (s: unknown, max: number): string | null => {
  if (typeof s !== 'string') return null;
  const t = s.trim();
  return t ? t.slice(0, max) : null;
};

/** Users, passwords (argon2id) and sessions (opaque tokens stored as SHA-256 hashes). */
@Injectable()
export class AccountsService {
  private dummyHash: Promise<string> | null = null;
  private opened = 0;

  constructor(
    @Inject(USER_REPOSITORY) private readonly users: UserRepositoryPort,
    @Inject(SESSION_REPOSITORY) private readonly sessions: SessionRepositoryPort,
    @Inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {}

  async signUp(input: { email: unknown; password: unknown; fullName?: unknown }): Promise<UserRecord> {
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    const password = typeof input.password === 'string' ? input.password : '';
    if (!email || !password) throw DomainError.invalid('Please fill in all fields.', 'fields_required');
    if (!EMAIL_PATTERN.test(email) || email.length > 320) throw DomainError.invalid(INVALID_EMAIL, 'invalid_email');
    const fullName = clean(input.fullName, 200);
    assertAcceptablePassword(password, [email, fullName ?? '']);
    const passwordHash = await this.hasher.hash(password);
    const user = await this.users.insert({ id: newId(), email, passwordHash, fullName, displayName: fullName, now: this.clock.now() });
    if (!user) throw DomainError.conflict('An account with this email already exists.', 'email_taken');
    return user;
  }

  /** Checks a password; the same work and the same answer whether the email exists or not. */
  async verifyCredentials(input: { email: unknown; password: unknown }): Promise<UserRecord> {
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    const password = typeof input.password === 'string' ? input.password : '';
    if (!email || !password) throw DomainError.invalid('Please fill in all fields.', 'fields_required');
    const user = await this.users.findByEmail(email);
    if (!user || !user.passwordHash) {
      await this.hasher.verify(await this.getDummyHash(), password);
      throw DomainError.unauthorized(INVALID_CREDENTIALS, 'invalid_credentials');
    }
    if (!(await this.hasher.verify(user.passwordHash, password))) throw DomainError.unauthorized(INVALID_CREDENTIALS, 'invalid_credentials');
    return user;
  }

  /** Opens a session for a user: the raw token goes to the cookie, only its hash is stored. */
  async openSession(userId: string): Promise<IssuedSession> {
    const now = this.clock.now();
    const token = randomSecret(32);
    const csrfToken = randomSecret(32);
    const expiresAt = new Date(now.getTime() + this.options.sessionTtlMs);
    await this.sessions.insert({ id: newId(), tokenHash: sha256(token), userId, csrfToken, now, expiresAt });
    await this.users.touchSignIn(userId, now);
    if (++this.opened % 100 === 0) void this.sessions.deleteExpired(now).catch(() => undefined);
    return { token, csrfToken, expiresAt };
  }

  async resolveSession(token: string | undefined | null): Promise<SessionPrincipal | null> {
    if (!token || token.length > 200) return null;
    const s = await this.sessions.findLive(sha256(token), this.clock.now());
    if (!s) return null;
    const user = await this.users.findById(s.userId);
    return user ? { user, sessionId: s.id, csrfToken: s.csrfToken } : null;
  }

  async closeSession(token: string | undefined | null): Promise<void> {
    if (token) await this.sessions.deleteByTokenHash(sha256(token));
  }

  getUser(id: string): Promise<UserRecord | null> {
    return this.users.findById(id);
  }

  findUserByEmail(email: string): Promise<UserRecord | null> {
    return this.users.findByEmail(email);
  }

  async updateProfile(userId: string, patch: { fullName?: unknown; displayName?: unknown }): Promise<UserRecord> {
    const p: { fullName?: string | null; displayName?: string | null } = {};
    for (const k of ['fullName', 'displayName'] as const) {
      const v = patch[k];
      if (v === undefined) continue;
      if (v !== null && typeof v !== 'string') throw DomainError.invalid(`${k} must be a string.`, 'invalid_profile');
      if (typeof v === 'string' && v.trim().length > 200) throw DomainError.invalid(`${k} is too long (maximum 200 characters).`, 'invalid_profile');
      p[k] = clean(v, 200);
    }
    const user = await this.users.updateProfile(userId, p);
    if (!user) throw DomainError.unauthorized();
    return user;
  }

  /** Finds or creates the user of an OpenID Connect identity (linked by issuer+subject, else by verified email). */
  async signInWithOidc(claims: { issuer: string; subject: string; email: string | null; emailVerified: boolean; name: string | null }): Promise<UserRecord> {
    const existing = await this.users.findByOidc(claims.issuer, claims.subject);
    if (existing) return existing;
    if (!claims.email || !EMAIL_PATTERN.test(claims.email)) throw DomainError.invalid('The identity provider did not share an email address.', 'oidc_no_email');
    const email = claims.email.toLowerCase();
    const byEmail = await this.users.findByEmail(email);
    if (byEmail) {
      if (!claims.emailVerified) throw DomainError.conflict('An account with this email already exists. Sign in with your password.', 'email_taken');
      await this.users.linkOidc(byEmail.id, claims.issuer, claims.subject);
      return (await this.users.markEmailVerified(byEmail.id, email, this.clock.now())) ?? byEmail;
    }
    const name = clean(claims.name, 200);
    const created = await this.users.insert({
      id: newId(),
      email,
      passwordHash: null,
      fullName: name,
      displayName: name,
      oidcIssuer: claims.issuer,
      oidcSubject: claims.subject,
      emailVerified: claims.emailVerified,
      now: this.clock.now(),
    });
    if (!created) return this.signInWithOidc(claims);
    return created;
  }

  private getDummyHash(): Promise<string> {
    return (this.dummyHash ??= this.hasher.hash(randomSecret(16)));
  }
}
