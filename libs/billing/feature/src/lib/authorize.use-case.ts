import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_KEY_RATE_LIMIT, type PlanId, type RpcResponse } from '@gaia/contracts';
import { QUOTA_REPOSITORY, type CounterRef, type QuotaRepositoryPort } from '@gaia/billing/data-access';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import { DomainError, type Clock } from '@gaia/shared/kernel';
import { BILLING_CLOCK } from './billing.tokens';
import { DEFAULT_PLAN, dayWindow, PLANS, secondsUntilNextUtcDay } from './billing.rules';

export interface AuthorizeInput {
  requestId: string;
  keyId: string | null;
  userId: string | null;
  channel: 'api' | 'web';
  /** undefined = default 1,000 a day; null = no per-key limit. */
  keyRateLimit: number | null | undefined;
}

export type AuthorizeResult = RpcResponse<'billing.authorize.v1'>;

export const planCounter = (userId: string, now: Date): CounterRef => ({ subject: `user:${userId}:api-calls`, window: dayWindow(now) });
export const keyCounter = (keyId: string, now: Date): CounterRef => ({ subject: `key:${keyId}:requests`, window: dayWindow(now) });

export function planLimitError(limit: number, retryAfterSeconds: number): DomainError {
  return DomainError.tooMany(
    `Daily limit reached: the Free plan allows ${limit} API calls per day. The API is available again after the daily reset at 00:00 UTC, or upgrade your plan.`,
    retryAfterSeconds,
    'plan_limit_reached',
  );
}

export function keyLimitError(limit: number, retryAfterSeconds: number): DomainError {
  return DomainError.tooMany(
    `Rate limit exceeded: this API key allows ${limit} requests per day. Try again after the daily reset at 00:00 UTC.`,
    retryAfterSeconds,
    'rate_limited',
  );
}

/**
 * Checks and consumes the quota of one translation in one Postgres transaction: the Free plan's daily
 * API calls and the key's daily rate limit, each a conditional upsert on a counter row (atomic across
 * gateway processes). A refusal rolls everything back. Idempotent on requestId.
 */
@Injectable()
export class AuthorizeUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
  ) {}

  authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    return this.uow.run(async (em) => {
      const now = this.clock.now();
      const resetIn = secondsUntilNextUtcDay(now);
      const keyLimit = input.keyRateLimit === undefined ? DEFAULT_KEY_RATE_LIMIT : input.keyRateLimit;
      let userId = input.userId;
      if (input.keyId) {
        const known = await this.quota.findKey(em, input.keyId);
        if (!userId) userId = known?.userId ?? null;
        // Written only when new or changed: no row lock on the hot path of a busy key.
        if (!known || known.userId !== userId || known.rateLimit !== keyLimit) await this.quota.rememberKey(em, input.keyId, userId, keyLimit, now);
      }
      const planId: PlanId = (userId ? await this.quota.getPlan(em, userId) : null) ?? DEFAULT_PLAN;
      const plan = PLANS[planId];
      const fresh = await this.quota.insertAuthorization(em, {
        requestId: input.requestId,
        userId,
        keyId: input.keyId,
        channel: input.channel,
        plan: planId,
        counters: [],
        status: 'allowed',
        createdAt: now,
      });
      if (!fresh) {
        const prior = await this.quota.findAuthorization(em, input.requestId);
        const planRemaining = plan.daily_api_calls !== null && userId ? plan.daily_api_calls - (await this.quota.count(em, planCounter(userId, now))) : null;
        const keyRemaining = input.keyId && keyLimit !== null ? keyLimit - (await this.quota.count(em, keyCounter(input.keyId, now))) : null;
        return { allowed: true, plan: prior?.plan ?? planId, remaining_today: planRemaining, key_remaining_today: keyRemaining, reset_in_seconds: resetIn, duplicate: true };
      }
      const consumed: CounterRef[] = [];
      let remainingToday: number | null = null;
      if (input.channel === 'api' && plan.daily_api_calls !== null && userId) {
        const ref = planCounter(userId, now);
        const n = await this.quota.tryIncrement(em, ref, plan.daily_api_calls);
        if (n === null) throw planLimitError(plan.daily_api_calls, resetIn);
        consumed.push(ref);
        remainingToday = plan.daily_api_calls - n;
      }
      let keyRemaining: number | null = null;
      if (input.keyId && keyLimit !== null) {
        const ref = keyCounter(input.keyId, now);
        const n = await this.quota.tryIncrement(em, ref, keyLimit);
        if (n === null) throw keyLimitError(keyLimit, resetIn);
        consumed.push(ref);
        keyRemaining = keyLimit - n;
      }
      if (consumed.length) await this.quota.updateAuthorization(em, input.requestId, consumed, 'allowed');
      return { allowed: true, plan: planId, remaining_today: remainingToday, key_remaining_today: keyRemaining, reset_in_seconds: resetIn, duplicate: false };
    });
  }

  /** Gives back what an authorization consumed (request that never ran). Idempotent. */
  release(requestId: string): Promise<{ released: boolean }> {
    return this.uow.run(async (em) => {
      const a = await this.quota.findAuthorization(em, requestId, { lock: true });
      if (!a || a.status === 'released') return { released: false };
      for (const ref of a.counters) await this.quota.decrement(em, ref);
      await this.quota.updateAuthorization(em, requestId, a.counters, 'released');
      return { released: true };
    });
  }
}
