import { createDataSource } from '@gaia/shared/database';
import { createTestDatabase, type TestDatabase } from '@gaia/testing';
import type { DataSource } from 'typeorm';
import { AgentsInit1767200000000 } from './1767200000000-agents-init';
import { AgentsTeamInvitations1779500000001 } from './1779500000001-agents-team-invitations';

/** The invitation migration on data written under the old rule (an invite shared the agents at once). */
describe('migration AgentsTeamInvitations1779500000001', () => {
  let db: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, schemas: [] });
    await ds.initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('takes the emails of members who never accepted out of sharedWithEmails, and nothing else', async () => {
    const q = ds.createQueryRunner();
    try {
      await new AgentsInit1767200000000().up(q);
      const now = new Date();
      for (const [id, owner, shared] of [
        ['a1', 'owner-1', ['pending@x.org', 'kept@x.org']],
        ['a2', 'owner-2', ['pending@x.org']],
      ] as const) {
        await q.query(
          `INSERT INTO agent (id, owner_id, src_lang, tgt_lang, shared_with_emails, created_at, updated_at) VALUES ($1, $2, 'es', 'qu', $3, $4, $4)`,
          [id, owner, shared, now],
        );
      }
      // owner-1 invited pending@x.org (old rule: shared at once); kept@x.org is not a team member row (e.g. shared otherwise).
      await q.query(`INSERT INTO team_member (id, owner_id, name, email, added_at) VALUES ('m1', 'owner-1', 'P', 'pending@x.org', $1)`, [now]);
      await new AgentsTeamInvitations1779500000001().up(q);
      const rows: Array<{ id: string; shared_with_emails: string[] }> = await q.query(`SELECT id, shared_with_emails FROM agent ORDER BY id`);
      // Another owner's agent keeps the address: only owner-1's pending member loses access to owner-1's agents.
      expect(rows).toEqual([
        { id: 'a1', shared_with_emails: ['kept@x.org'] },
        { id: 'a2', shared_with_emails: ['pending@x.org'] },
      ]);
      expect((await q.query(`SELECT status, token_hash FROM team_member`))[0]).toEqual({ status: 'invited', token_hash: null });
    } finally {
      await q.release();
    }
  });
});
