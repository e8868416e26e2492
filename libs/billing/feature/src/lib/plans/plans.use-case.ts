import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { PlanDto, PlanId, PlanRequestDto, RpcResponse } from '@gaia/contracts';
import {
  PLAN_HISTORY_REPOSITORY,
  QUOTA_REPOSITORY,
  type PlanHistoryRepositoryPort,
  type PlanRequestRow,
  type QuotaRepositoryPort,
} from '@gaia/billing/data-access';
import { DATA_SOURCE, UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { newId, type Clock } from '@gaia/shared/kernel';
import { OUTBOX, type Outbox } from '@gaia/shared/messaging';
import { BILLING_CLOCK } from '../billing.tokens';
import { QuotaLeases } from '../quota-leases';
import { DEFAULT_PLAN, PLANS } from '../billing.rules';

const requestDto = (r: PlanRequestRow): PlanRequestDto => ({
  id: r.id,
  user_id: r.userId,
  plan: r.plan,
  status: r.status,
  requested_at: r.requestedAt.toISOString(),
  granted_at: r.grantedAt?.toISOString() ?? null,
});

/**
 * A plan per user (Free until changed); a change applies at once and is kept in the plan history (proration).
 * Paid plans start from a request the operator grants ("contact the provider", spec §9).
 */
@Injectable()
export class PlansUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
    @Inject(PLAN_HISTORY_REPOSITORY) private readonly history: PlanHistoryRepositoryPort,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
    private readonly leases: QuotaLeases,
  ) {}

  async get(userId: string): Promise<PlanDto> {
    return PLANS[(await this.quota.getPlan(this.ds.manager, userId)) ?? DEFAULT_PLAN];
  }

  set(userId: string, plan: PlanId): Promise<PlanDto> {
    return this.uow
      .run(async (em) => {
        const now = this.clock.now();
        const previous = (await this.quota.setPlan(em, userId, plan, now)) ?? DEFAULT_PLAN;
        if (previous !== plan) {
          await this.history.recordChange(em, userId, { plan, previousPlan: previous, at: now });
          await this.outbox.add(em, 'billing.plan-changed.v1', { userId, plan, previousPlan: previous, changedAt: now.toISOString() });
        }
        await this.history.grant(em, userId, plan, now);
        return PLANS[plan];
      })
      .finally(() => this.leases.forgetPlan(userId)); // this process meters the new plan at once (others within PLAN_CACHE_MS)
  }

  /** Get Started: Free at once; a paid plan becomes a pending request (the same one when asked again). */
  async request(userId: string, plan: PlanId): Promise<RpcResponse<'billing.request-plan.v1'>> {
    if (plan === DEFAULT_PLAN) return { status: 'active', plan: await this.set(userId, plan), request: null };
    const current = await this.get(userId);
    if (current.id === plan) return { status: 'active', plan: current, request: null };
    const r = await this.uow.run((em) => this.history.request(em, { id: newId(), userId, plan, at: this.clock.now() }));
    return { status: 'requested', plan: current, request: requestDto(r) };
  }

  async requests(status: 'pending' | 'all', limit: number): Promise<PlanRequestDto[]> {
    return (await this.history.list(this.ds.manager, status, limit)).map(requestDto);
  }
}
