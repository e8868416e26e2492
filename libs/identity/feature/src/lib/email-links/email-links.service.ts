import { Inject, Injectable } from '@nestjs/common';
import { EMAIL_TOKEN_REPOSITORY, USER_REPOSITORY, type EmailTokenRepositoryPort, type UserRecord, type UserRepositoryPort } from '@gaia/identity/data-access';
import { MAIL_SENDER, type MailSender } from '@gaia/shared/mail';
import { CLOCK, DomainError, type Clock } from '@gaia/shared/kernel';
import { IDENTITY_OPTIONS, type IdentityOptions } from '../identity.tokens';
import { randomSecret, sha256 } from '../tokens.util';

export const VERIFY_EMAIL_PATH = '/verify-email';
export const ACCEPT_INVITATION_PATH = '/invitations/accept';
export const INVALID_VERIFICATION_LINK = 'This verification link is invalid, expired or already used. Sign in and send a new one.';
/** Bytes of entropy of a link token (256 bits); only its SHA-256 is stored. */
const LINK_TOKEN_BYTES = 32;
/** A token longer than this is not one of ours (never hashed, never looked up). */
const MAX_TOKEN_LENGTH = 200;

/** A fresh single-use link token and the hash to store. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomSecret(LINK_TOKEN_BYTES);
  return { token, tokenHash: sha256(token) };
}

/** The stored form of a token received in a link; null when it cannot be one. */
export function linkTokenHash(token: unknown): string | null {
  return typeof token === 'string' && token.length > 0 && token.length <= MAX_TOKEN_LENGTH ? sha256(token) : null;
}

/** Mail with single-use links: verifying the account's email address, and team invitations. */
@Injectable()
export class EmailLinksService {
  constructor(
    @Inject(USER_REPOSITORY) private readonly users: UserRepositoryPort,
    @Inject(EMAIL_TOKEN_REPOSITORY) private readonly tokens: EmailTokenRepositoryPort,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {}

  /** Sends a new verification link (earlier ones of the user stop working). Nothing for a verified address. */
  async sendVerification(user: UserRecord, baseUrl: string): Promise<void> {
    if (user.emailVerifiedAt) return;
    const now = this.clock.now();
    const { token, tokenHash } = newLinkToken();
    await this.tokens.deleteForUser(user.id);
    await this.tokens.insert({ tokenHash, userId: user.id, email: user.email, now, expiresAt: new Date(now.getTime() + this.options.emailTokenTtlMs) });
    const link = `${baseUrl}${VERIFY_EMAIL_PATH}?token=${token}`;
    const hours = Math.round(this.options.emailTokenTtlMs / 3_600_000);
    await this.mail.send({
      to: user.email,
      subject: 'Confirm your email address for Gaia',
      text: `Hello,\n\nConfirm the email address of your Gaia account by opening this link:\n\n${link}\n\nThe link works once and for ${hours} hours. If you did not create a Gaia account, ignore this message.\n`,
      link,
    });
  }

  /** Uses a verification link up; answers the verified user. */
  async verify(token: unknown): Promise<UserRecord> {
    const hash = linkTokenHash(token);
    const t = hash ? await this.tokens.consume(hash, this.clock.now()) : null;
    const user = t ? await this.users.markEmailVerified(t.userId, t.email, this.clock.now()) : null;
    if (!user) throw DomainError.invalid(INVALID_VERIFICATION_LINK, 'verification_link_invalid');
    return user;
  }

  /** Mails a team invitation link (the token's hash is stored by the team, never the token). */
  async sendInvitation(to: string, inviterName: string, token: string, baseUrl: string): Promise<void> {
    const link = `${baseUrl}${ACCEPT_INVITATION_PATH}?token=${token}`;
    await this.mail.send({
      to,
      subject: `${inviterName} invited you to edit translation agents on Gaia`,
      text:
        `Hello,\n\n${inviterName} invited you to join their team on Gaia as an editor of their translation agents.\n\n` +
        `Open this link, sign in or create an account with this email address (${to}), confirm the address, and accept:\n\n${link}\n\n` +
        `The invitation works once. If you do not know ${inviterName}, ignore this message.\n`,
      link,
    });
  }
}
