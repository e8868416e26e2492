import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PlanId } from '@gaia/contracts';

export interface PlanChangeRow {
  plan: PlanId;
  previousPlan: PlanId;
  at: Date;
}

export interface PlanRequestRow {
  id: string;
  userId: string;
  plan: PlanId;
  status: 'pending' | 'granted';
  requestedAt: Date;
  grantedAt: Date | null;
}

/** Plan changes (proration) and plan requests (on the caller's EntityManager / transaction). */
export interface PlanHistoryRepositoryPort {
  recordChange(em: EntityManager, userId: string, change: PlanChangeRow): Promise<void>;
  /** Changes of [from, to), oldest first. */
  changes(em: EntityManager, userId: string, from: Date, to: Date): Promise<PlanChangeRow[]>;
  /** Records a pending request; an open request of the same user and plan is answered instead. */
  request(em: EntityManager, r: { id: string; userId: string; plan: PlanId; at: Date }): Promise<PlanRequestRow>;
  /** Marks the user's open requests for `plan` granted. */
  grant(em: EntityManager, userId: string, plan: PlanId, at: Date): Promise<void>;
  list(em: EntityManager, status: 'pending' | 'all', limit: number): Promise<PlanRequestRow[]>;
}
export const PLAN_HISTORY_REPOSITORY = Symbol('PLAN_HISTORY_REPOSITORY');

interface RequestRow {
  id: string;
  user_id: string;
  plan: PlanId;
  status: 'pending' | 'granted';
  requested_at: Date;
  granted_at: Date | null;
}
const toRequest = (r: RequestRow): PlanRequestRow => ({
  id: r.id,
  userId: r.user_id,
  plan: r.plan,
  status: r.status,
  requestedAt: new Date(r.requested_at),
  grantedAt: r.granted_at ? new Date(r.granted_at) : null,
});
const rowsOf = <T>(res: unknown): T[] => (Array.isArray((res as unknown[])[0]) ? ((res as unknown[][])[0] as T[]) : (res as T[]));

@Injectable()
export class PostgresPlanHistoryRepository implements PlanHistoryRepositoryPort {
  async recordChange(em: EntityManager, userId: string, c: PlanChangeRow): Promise<void> {
    await em.query(`INSERT INTO billing_plan_change (user_id, plan, previous_plan, changed_at) VALUES ($1, $2, $3, $4)`, [
      userId,
      c.plan,
      c.previousPlan,
      c.at,
    ]);
  }

  async changes(em: EntityManager, userId: string, from: Date, to: Date): Promise<PlanChangeRow[]> {
    const rows: { plan: PlanId; previous_plan: PlanId; changed_at: Date }[] = await em.query(
      `SELECT plan, previous_plan, changed_at FROM billing_plan_change WHERE user_id = $1 AND changed_at >= $2 AND changed_at < $3 ORDER BY changed_at, seq`,
      [userId, from, to],
    );
    return rows.map((r) => ({ plan: r.plan, previousPlan: r.previous_plan, at: new Date(r.changed_at) }));
  }

  async request(em: EntityManager, r: { id: string; userId: string; plan: PlanId; at: Date }): Promise<PlanRequestRow> {
    await em.query(
      `INSERT INTO billing_plan_request (id, user_id, plan, requested_at) VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, plan) WHERE status = 'pending' DO NOTHING`,
      [r.id, r.userId, r.plan, r.at],
    );
    const rows: RequestRow[] = await em.query(`SELECT * FROM billing_plan_request WHERE user_id = $1 AND plan = $2 AND status = 'pending'`, [r.userId, r.plan]);
    return toRequest(rows[0]);
  }

  async grant(em: EntityManager, userId: string, plan: PlanId, at: Date): Promise<void> {
    await em.query(`UPDATE billing_plan_request SET status = 'granted', granted_at = $3 WHERE user_id = $1 AND plan = $2 AND status = 'pending'`, [
      userId,
      plan,
      at,
    ]);
  }

  async list(em: EntityManager, status: 'pending' | 'all', limit: number): Promise<PlanRequestRow[]> {
    const res = await em.query(`SELECT * FROM billing_plan_request WHERE ($1 = 'all' OR status = 'pending') ORDER BY requested_at, seq LIMIT $2`, [
      status,
      limit,
    ]);
    return rowsOf<RequestRow>(res).map(toRequest);
  }
}
