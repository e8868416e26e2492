import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';
import type { UserRecord } from './identity.entities';

const COLS = `id, email, password_hash, full_name, display_name, oidc_issuer, oidc_subject, created_at, last_sign_in_at, email_verified_at`;

function toUser(r: Record<string, unknown>): UserRecord {
  return {
    id: r['id'] as string,
    email: r['email'] as string,
    passwordHash: (r['password_hash'] as string | null) ?? null,
    fullName: (r['full_name'] as string | null) ?? null,
    displayName: (r['display_name'] as string | null) ?? null,
    oidcIssuer: (r['oidc_issuer'] as string | null) ?? null,
    oidcSubject: (r['oidc_subject'] as string | null) ?? null,
    createdAt: new Date(r['created_at'] as string),
    lastSignInAt: r['last_sign_in_at'] ? new Date(r['last_sign_in_at'] as string) : null,
    emailVerifiedAt: r['email_verified_at'] ? new Date(r['email_verified_at'] as string) : null,
  };
}

export interface NewUser {
  id: string;
  email: string;
  passwordHash: string | null;
  fullName: string | null;
  displayName: string | null;
  oidcIssuer?: string | null;
  oidcSubject?: string | null;
  emailVerified?: boolean;
  now: Date;
}

/** Persistence of user accounts. */
export interface UserRepositoryPort {
  /** Inserts a user; returns null when the email is taken. */
  insert(u: NewUser): Promise<UserRecord | null>;
  findById(id: string): Promise<UserRecord | null>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<UserRecord | null>;
  /** Users oldest first (operator listing). */
  list(limit: number, offset?: number): Promise<UserRecord[]>;
  findByOidc(issuer: string, subject: string): Promise<UserRecord | null>;
  linkOidc(id: string, issuer: string, subject: string): Promise<void>;
  /** Marks the address verified, only while the account still has that email; null otherwise. */
  markEmailVerified(id: string, email: string, at: Date): Promise<UserRecord | null>;
  touchSignIn(id: string, at: Date): Promise<void>;
  /** Changes the given fields only (undefined = keep); null when there is no such user. */
  updateProfile(id: string, patch: { fullName?: string | null; displayName?: string | null }): Promise<UserRecord | null>;
}
export const USER_REPOSITORY = Symbol('USER_REPOSITORY');

@Injectable()
export class PostgresUserRepository implements UserRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async insert(u: NewUser): Promise<UserRecord | null> {
    const rows = await this.ds.query(
      `INSERT INTO identity_user (id, email, password_hash, full_name, display_name, oidc_issuer, oidc_subject, created_at, last_sign_in_at, email_verified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, CASE WHEN $9::boolean THEN $8::timestamptz END) ON CONFLICT DO NOTHING RETURNING ${COLS}`,
      [u.id, u.email, u.passwordHash, u.fullName, u.displayName, u.oidcIssuer ?? null, u.oidcSubject ?? null, u.now, u.emailVerified ?? false],
    );
    return rows.length ? toUser(rows[0]) : null;
  }

  async findById(id: string): Promise<UserRecord | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const rows = await this.ds.query(`SELECT ${COLS} FROM identity_user WHERE id = $1`, [id]);
    return rows.length ? toUser(rows[0]) : null;
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const rows = await this.ds.query(`SELECT ${COLS} FROM identity_user WHERE lower(email) = lower($1)`, [email]);
    return rows.length ? toUser(rows[0]) : null;
  }

  async list(limit: number, offset = 0): Promise<UserRecord[]> {
    const rows = await this.ds.query(`SELECT ${COLS} FROM identity_user ORDER BY created_at, id LIMIT $1 OFFSET $2`, [limit, offset]);
    return rows.map(toUser);
  }

  async findByOidc(issuer: string, subject: string): Promise<UserRecord | null> {
    const rows = await this.ds.query(`SELECT ${COLS} FROM identity_user WHERE oidc_issuer = $1 AND oidc_subject = $2`, [issuer, subject]);
    return rows.length ? toUser(rows[0]) : null;
  }

  async linkOidc(id: string, issuer: string, subject: string): Promise<void> {
    await this.ds.query(`UPDATE identity_user SET oidc_issuer = $2, oidc_subject = $3 WHERE id = $1`, [id, issuer, subject]);
  }

  async markEmailVerified(id: string, email: string, at: Date): Promise<UserRecord | null> {
    const rows = await this.ds.query(
      `UPDATE identity_user SET email_verified_at = COALESCE(email_verified_at, $3) WHERE id = $1 AND lower(email) = lower($2) RETURNING ${COLS}`,
      [id, email, at],
    );
    const r = Array.isArray(rows[0]) ? rows[0] : rows;
    return r.length ? toUser(r[0]) : null;
  }

  async touchSignIn(id: string, at: Date): Promise<void> {
    await this.ds.query(`UPDATE identity_user SET last_sign_in_at = $2 WHERE id = $1`, [id, at]);
  }

  async updateProfile(id: string, patch: { fullName?: string | null; displayName?: string | null }): Promise<UserRecord | null> {
    const rows = await this.ds.query(
      `UPDATE identity_user SET
         full_name = CASE WHEN $2::boolean THEN $3 ELSE full_name END,
         display_name = CASE WHEN $4::boolean THEN $5 ELSE display_name END
       WHERE id = $1 RETURNING ${COLS}`,
      [id, patch.fullName !== undefined, patch.fullName ?? null, patch.displayName !== undefined, patch.displayName ?? null],
    );
    const r = Array.isArray(rows[0]) ? rows[0] : rows;
    return r.length ? toUser(r[0]) : null;
  }
}
