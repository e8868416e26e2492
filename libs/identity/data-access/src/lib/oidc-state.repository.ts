import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

/** A pending OIDC login as stored: its secrets sealed (never in plain text) and where the provider sends the browser back. */
export interface PendingOidcLogin {
  sealed: string;
  redirectUri: string;
}

/** How long a pending login is kept at most (the callback accepts younger ones only). */
const PENDING_LOGIN_KEPT_MS = 3600_000;

/** Pending OIDC logins (hash of the state → sealed PKCE verifier + nonce), shared by every replica; each is consumed once. */
export interface OidcStateRepositoryPort {
  /** Stores a pending login (and forgets the ones older than an hour). */
  save(stateHash: string, sealed: string, redirectUri: string, now: Date): Promise<void>;
  /** Deletes and returns the login of `stateHash` if it is younger than `maxAgeMs`. */
  take(stateHash: string, now: Date, maxAgeMs: number): Promise<PendingOidcLogin | null>;
}
export const OIDC_STATE_REPOSITORY = Symbol('OIDC_STATE_REPOSITORY');

@Injectable()
export class PostgresOidcStateRepository implements OidcStateRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async save(stateHash: string, sealed: string, redirectUri: string, now: Date): Promise<void> {
    await this.ds.query(`DELETE FROM identity_oidc_state WHERE created_at < $1`, [new Date(now.getTime() - PENDING_LOGIN_KEPT_MS)]);
    await this.ds.query(`INSERT INTO identity_oidc_state (state_hash, sealed, redirect_uri, created_at) VALUES ($1, $2, $3, $4)`, [
      stateHash,
      sealed,
      redirectUri,
      now,
    ]);
  }

  async take(stateHash: string, now: Date, maxAgeMs: number): Promise<PendingOidcLogin | null> {
    const rows = await this.ds.query(`DELETE FROM identity_oidc_state WHERE state_hash = $1 RETURNING sealed, redirect_uri, created_at`, [stateHash]);
    const r = Array.isArray(rows[0]) ? rows[0] : rows;
    if (!r.length) return null;
    if (now.getTime() - new Date(r[0].created_at).getTime() > maxAgeMs) return null;
    return { sealed: r[0].sealed, redirectUri: r[0].redirect_uri };
  }
}
