import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Account deletion on the agents side (on the caller's transaction). */
@Injectable()
export class AgentsErasureRepository {
  /** Every agent row of the owner, live ones (not yet tombstoned) flagged. */
  async ownedAgents(em: EntityManager, ownerId: string): Promise<{ id: string; live: boolean; sharedWithEmails: string[] }[]> {
    const rows: { id: string; deleted_at: Date | null; shared_with_emails: string[] }[] = await em.query(
      `SELECT id, deleted_at, shared_with_emails FROM agent WHERE owner_id = $1 FOR UPDATE`,
      [ownerId],
    );
    return rows.map((r) => ({ id: r.id, live: r.deleted_at === null, sharedWithEmails: r.shared_with_emails ?? [] }));
  }

  /** Removes the owner's agent rows (tombstones included), its team rows as owner and as member, the email from every share, and the author of its corrections on other agents. */
  async erase(em: EntityManager, ownerId: string, email: string): Promise<void> {
    await em.query(`DELETE FROM agent WHERE owner_id = $1`, [ownerId]);
    await em.query(`DELETE FROM team_member WHERE owner_id = $1 OR lower(email) = $2`, [ownerId, email]);
    await em.query(
      `UPDATE agent SET shared_with_emails = array_remove(shared_with_emails, $1), version = version + 1, updated_at = now()
        WHERE shared_with_emails @> ARRAY[$1]::text[]`,
      [email],
    );
    await em.query(`UPDATE agent SET owner_email = '' WHERE lower(owner_email) = $1`, [email]);
    // Corrections written on other owners' agents stay theirs (the agent learns from them); who wrote them goes.
    await em.query(`UPDATE agent_correction SET author_uid = '', author_email = '' WHERE author_uid = $1 OR lower(author_email) = $2`, [ownerId, email]);
  }
}
