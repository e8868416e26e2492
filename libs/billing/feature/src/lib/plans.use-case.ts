import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { PlanDto, PlanId } from '@gaia/contracts';
import { QUOTA_REPOSITORY, type QuotaRepositoryPort } from '@gaia/billing/data-access';
import { DATA_SOURCE, UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import type { Clock } from '@gaia/shared/kernel';
import { OUTBOX, type Outbox } from '@gaia/shared/messaging';
import { BILLING_CLOCK } from './billing.tokens';
import { DEFAULT_PLAN, PLANS } from './billing.rules';

/** A plan per user (Free until changed); a change applies at once. */
@Injectable()
export class PlansUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
  ) {}

  list(): PlanDto[] {
    return Object.values(PLANS);
  }

  async get(userId: string): Promise<PlanDto> {
    return PLANS[(await this.quota.getPlan(this.ds.manager, userId)) ?? DEFAULT_PLAN];
  }

  set(userId: string, plan: PlanId): Promise<PlanDto> {
    return this.uow.run(async (em) => {
      const now = this.clock.now();
      const previous = (await this.quota.setPlan(em, userId, plan, now)) ?? DEFAULT_PLAN;
      if (previous !== plan) await this.outbox.add(em, 'billing.plan-changed.v1', { userId, plan, previousPlan: previous, changedAt: now.toISOString() });
      return PLANS[plan];
    });
  }
}
