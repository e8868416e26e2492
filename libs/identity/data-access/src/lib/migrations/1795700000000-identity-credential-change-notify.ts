import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every change of an API key (revoked, new rate limit, deleted with its account) or of a user notifies
 * `gaia_identity_changed` with `key:<id>` / `user:<id>`: gateway replicas drop what they cached of it at once,
 * whichever code path (HTTP, operator CLI, account deletion) made the change.
 */
export class IdentityCredentialChangeNotify1795700000000 implements MigrationInterface {
  name = 'IdentityCredentialChangeNotify1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION identity_notify_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('gaia_identity_changed', 'key:' || OLD.id::text);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION identity_notify_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('gaia_identity_changed', 'user:' || OLD.id::text);
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER identity_api_key_changed AFTER UPDATE OR DELETE ON identity_api_key FOR EACH ROW EXECUTE FUNCTION identity_notify_key_change()`,
    );
    await q.query(`CREATE TRIGGER identity_user_changed AFTER UPDATE OR DELETE ON identity_user FOR EACH ROW EXECUTE FUNCTION identity_notify_user_change()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER identity_user_changed ON identity_user`);
    await q.query(`DROP TRIGGER identity_api_key_changed ON identity_api_key`);
    await q.query(`DROP FUNCTION identity_notify_user_change()`);
    await q.query(`DROP FUNCTION identity_notify_key_change()`);
  }
}
