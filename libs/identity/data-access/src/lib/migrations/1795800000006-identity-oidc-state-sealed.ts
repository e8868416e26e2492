import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pending OIDC sign-ins no longer hold secrets in plain text: the row is keyed by a hash of the state and holds the
 * PKCE verifier and nonce sealed (AES-256-GCM, key derived from the state). Pending rows (≤ 10 minutes of use) are
 * dropped: those sign-ins start again.
 */
export class IdentityOidcStateSealed1795800000006 implements MigrationInterface {
  name = 'IdentityOidcStateSealed1795800000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM identity_oidc_state`);
    await q.query(`ALTER TABLE identity_oidc_state DROP COLUMN code_verifier, DROP COLUMN nonce, ADD COLUMN sealed text NOT NULL`);
    await q.query(`ALTER TABLE identity_oidc_state RENAME COLUMN state TO state_hash`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM identity_oidc_state`);
    await q.query(`ALTER TABLE identity_oidc_state RENAME COLUMN state_hash TO state`);
    await q.query(`ALTER TABLE identity_oidc_state DROP COLUMN sealed, ADD COLUMN code_verifier text NOT NULL, ADD COLUMN nonce text NOT NULL`);
  }
}
