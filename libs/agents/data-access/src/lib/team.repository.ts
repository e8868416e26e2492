import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowsOf } from '@gaia/shared/messaging';
import type { TeamMemberEntity } from './agent.entity';

/** Persistence of team members (editors invited by an owner). */
export interface TeamRepositoryPort {
  list(em: EntityManager, ownerId: string): Promise<TeamMemberEntity[]>;
  findById(em: EntityManager, ownerId: string, id: string): Promise<TeamMemberEntity | null>;
  /** False when the owner already has a member with this email. */
  insert(em: EntityManager, m: TeamMemberEntity): Promise<boolean>;
  delete(em: EntityManager, ownerId: string, id: string): Promise<TeamMemberEntity | null>;
  findByTokenHash(em: EntityManager, tokenHash: string): Promise<TeamMemberEntity | null>;
  /** Makes a pending member active and uses its token up; null when the token is not pending for that email any more. */
  activate(em: EntityManager, tokenHash: string, email: string, now: Date): Promise<TeamMemberEntity | null>;
}
export const TEAM_REPOSITORY = Symbol('TEAM_REPOSITORY');

interface Row {
  id: string;
  owner_id: string;
  name: string;
  email: string;
  role: 'Editor';
  status: 'invited' | 'active';
  added_at: Date;
  token_hash: string | null;
  token_expires_at: Date | null;
}
const toEntity = (r: Row): TeamMemberEntity => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  email: r.email,
  role: r.role,
  status: r.status,
  addedAt: new Date(r.added_at),
  tokenHash: r.token_hash ?? null,
  tokenExpiresAt: r.token_expires_at ? new Date(r.token_expires_at) : null,
});

@Injectable()
export class PostgresTeamRepository implements TeamRepositoryPort {
  async list(em: EntityManager, ownerId: string): Promise<TeamMemberEntity[]> {
    const rows: Row[] = await em.query(`SELECT * FROM team_member WHERE owner_id = $1 ORDER BY added_at, id`, [ownerId]);
    return rows.map(toEntity);
  }

  async findById(em: EntityManager, ownerId: string, id: string): Promise<TeamMemberEntity | null> {
    const rows: Row[] = await em.query(`SELECT * FROM team_member WHERE owner_id = $1 AND id = $2`, [ownerId, id]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async insert(em: EntityManager, m: TeamMemberEntity): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `INSERT INTO team_member (id, owner_id, name, email, role, status, added_at, token_hash, token_expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (owner_id, email) DO NOTHING RETURNING id`,
      [m.id, m.ownerId, m.name, m.email, m.role, m.status, m.addedAt, m.tokenHash, m.tokenExpiresAt],
    );
    return rows.length === 1;
  }

  async delete(em: EntityManager, ownerId: string, id: string): Promise<TeamMemberEntity | null> {
    const rows = rowsOf<Row>(await em.query(`DELETE FROM team_member WHERE owner_id = $1 AND id = $2 RETURNING *`, [ownerId, id]));
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async findByTokenHash(em: EntityManager, tokenHash: string): Promise<TeamMemberEntity | null> {
    const rows: Row[] = await em.query(`SELECT * FROM team_member WHERE token_hash = $1`, [tokenHash]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async activate(em: EntityManager, tokenHash: string, email: string, now: Date): Promise<TeamMemberEntity | null> {
    const rows = rowsOf<Row>(
      await em.query(
        `UPDATE team_member SET status = 'active', token_hash = NULL, token_expires_at = NULL
         WHERE token_hash = $1 AND email = $2 AND status = 'invited' AND token_expires_at > $3 RETURNING *`,
        [tokenHash, email, now],
      ),
    );
    return rows[0] ? toEntity(rows[0]) : null;
  }
}
