import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identity: users, sessions (hashed tokens), API keys (hashed secrets), idempotency records, shared
 * rate-limit counters, OIDC login states and small settings (the public translator key).
 */
export class IdentityInit1767512000000 implements MigrationInterface {
  name = 'IdentityInit1767512000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identity_user (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        password_hash text,
        full_name text,
        display_name text,
        oidc_issuer text,
        oidc_subject text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX identity_user_email ON identity_user (lower(email))`);
    await q.query(`CREATE UNIQUE INDEX identity_user_oidc ON identity_user (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL`);
    await q.query(`
      CREATE TABLE identity_session (
        id uuid PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES identity_user(id) ON DELETE CASCADE,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX identity_session_user ON identity_session (user_id)`);
    await q.query(`
      CREATE TABLE identity_api_key (
        id uuid PRIMARY KEY,
        user_id uuid REFERENCES identity_user(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('user', 'public')),
        name text NOT NULL,
        prefix text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        rate_limit int NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX identity_api_key_user ON identity_api_key (user_id, created_at)`);
    await q.query(`
      CREATE TABLE identity_idempotency (
        scope text NOT NULL,
        route text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'done')),
        status int,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, route, key)
      )`);
    await q.query(`
      CREATE TABLE identity_rate_counter (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        count int NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (bucket, window_start)
      )`);
    await q.query(`CREATE INDEX identity_rate_counter_expiry ON identity_rate_counter (expires_at)`);
    await q.query(`
      CREATE TABLE identity_oidc_state (
        state text PRIMARY KEY,
        code_verifier text NOT NULL,
        nonce text NOT NULL,
        redirect_uri text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE identity_setting (
        name text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'identity_setting',
      'identity_oidc_state',
      'identity_rate_counter',
      'identity_idempotency',
      'identity_api_key',
      'identity_session',
      'identity_user',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
