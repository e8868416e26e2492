import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Team invitations with single-use links: only the SHA-256 of the link token is stored, and a member is
 * 'invited' (grants nothing) until the invitee accepts ('active'). Pending members' emails leave
 * sharedWithEmails: under the old rule an invitation granted access before anyone proved the address.
 */
export class AgentsTeamInvitations1779500000001 implements MigrationInterface {
  name = 'AgentsTeamInvitations1779500000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE team_member ADD COLUMN token_hash text, ADD COLUMN token_expires_at timestamptz`);
    await q.query(`CREATE UNIQUE INDEX team_member_token ON team_member (token_hash) WHERE token_hash IS NOT NULL`);
    await q.query(`
      UPDATE agent a SET shared_with_emails = COALESCE(
        (SELECT array_agg(e) FROM unnest(a.shared_with_emails) e
          WHERE NOT EXISTS (SELECT 1 FROM team_member m WHERE m.owner_id = a.owner_id AND m.email = e AND m.status = 'invited')), '{}'),
        version = version + 1
      WHERE EXISTS (SELECT 1 FROM team_member m WHERE m.owner_id = a.owner_id AND m.status = 'invited' AND m.email = ANY (a.shared_with_emails))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS team_member_token`);
    await q.query(`ALTER TABLE team_member DROP COLUMN IF EXISTS token_expires_at, DROP COLUMN IF EXISTS token_hash`);
  }
}
