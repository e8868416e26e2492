import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

export interface PendingOidcLogin {
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
}

/** Pending OIDC logins (state → PKCE verifier + nonce), shared by every replica; each is consumed once. */
export interface OidcStateRepositoryPort {
  /** Stores a pending login (and forgets the ones older than an hour). */
  save(state: string, codeVerifier: string, nonce: string, redirectUri: string, now: Date): Promise<void>;
  /** Deletes and returns the login of `state` if it is younger than `maxAgeMs`. */
  take(state: string, now: Date, maxAgeMs: number): Promise<PendingOidcLogin | null>;
}
export const OIDC_STATE_REPOSITORY = Symbol('OIDC_STATE_REPOSITORY');

@Injectable()
export class PostgresOidcStateRepository implements OidcStateRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async save(state: string, codeVerifier: string, nonce: string, redirectUri: string, now: Date): Promise<void> {
    await this.ds.query(`DELETE FROM identity_oidc_state WHERE created_at < $1`, [new Date(now.getTime() - 3600_000)]);
    await this.ds.query(`INSERT INTO identity_oidc_state (state, code_verifier, nonce, redirect_uri, created_at) VALUES ($1, $2, $3, $4, $5)`, [
      state,
      codeVerifier,
      nonce,
      redirectUri,
      now,
    ]);
  }

  async take(state: string, now: Date, maxAgeMs: number): Promise<PendingOidcLogin | null> {
    const rows = await this.ds.query(`DELETE FROM identity_oidc_state WHERE state = $1 RETURNING code_verifier, nonce, redirect_uri, created_at`, [state]);
    const r = Array.isArray(rows[0]) ? rows[0] : rows;
    if (!r.length) return null;
    if (now.getTime() - new Date(r[0].created_at).getTime() > maxAgeMs) return null;
    return { codeVerifier: r[0].code_verifier, nonce: r[0].nonce, redirectUri: r[0].redirect_uri };
  }
}
