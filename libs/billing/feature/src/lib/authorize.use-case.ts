import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_KEY_RATE_LIMIT, type PlanId, type RpcResponse } from '@gaia/contracts';
import { QUOTA_REPOSITORY, USAGE_REPOSITORY, type QuotaRepositoryPort, type UsageRepositoryPort } from '@gaia/billing/data-access';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import type { Clock } from '@gaia/shared/kernel';
import { BILLING_CLOCK, PUBLIC_TRANSLATOR_LIMITS } from './billing.tokens';
import { DEFAULT_PLAN, PLANS, secondsUntilNextUtcDay } from './billing.rules';
import { meteringRules, type CounterRule, type MeteredCaller, type PublicTranslatorLimits } from './metering.rules';

export { keyCounter, keyLimitError, planCounter, planLimitError } from './metering.rules';

export interface AuthorizeInput {
  requestId: string;
  keyId: string | null;
  userId: string | null;
  channel: MeteredCaller['channel'];
  /** undefined = default 1,000 a day; null = no per-key limit. */
  keyRateLimit: number | null | undefined;
  /** Client IP (counted for the public translator). */
  ip?: string | null;
}

export type AuthorizeResult = RpcResponse<'billing.authorize.v1'>;

/**
 * The metering use case every translation path goes through (API key, session test translator, Socket.IO,
 * public translator; a batch calls it once per text). In one Postgres transaction it consumes a unit of
 * each counter `meteringRules` names (conditional upserts: atomic across gateway processes); a refusal
 * rolls everything back. Idempotent on requestId (never counted twice). `release` gives the units back
 * when the translation fails (refused, engine error, database outage), unless its usage was recorded.
 */
@Injectable()
export class AuthorizeUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
    @Inject(USAGE_REPOSITORY) private readonly usage: UsageRepositoryPort,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
    @Inject(PUBLIC_TRANSLATOR_LIMITS) private readonly publicLimits: PublicTranslatorLimits,
  ) {}

  authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    return this.uow.run(async (em) => {
      const now = this.clock.now();
      const resetIn = secondsUntilNextUtcDay(now);
      const keyLimit = input.keyRateLimit === undefined ? DEFAULT_KEY_RATE_LIMIT : input.keyRateLimit;
      let userId = input.userId;
      if (input.keyId && input.channel === 'api') {
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
      const caller: MeteredCaller = { channel: input.channel, userId, keyId: input.keyId, keyLimit, ip: input.ip ?? null };
      const rules = meteringRules(caller, plan, now, this.publicLimits);
      const remaining = new Map<CounterRule['kind'], number>();
      if (!fresh) {
        const prior = await this.quota.findAuthorization(em, input.requestId);
        for (const rule of rules) remaining.set(rule.kind, rule.limit - (await this.quota.count(em, rule.ref)));
        return { allowed: true, plan: prior?.plan ?? planId, remaining_today: remaining.get('plan') ?? null, key_remaining_today: remaining.get('key') ?? null, reset_in_seconds: resetIn, duplicate: true };
      }
      for (const rule of rules) {
        const n = await this.quota.tryIncrement(em, rule.ref, rule.limit);
        if (n === null) throw rule.refusal();
        remaining.set(rule.kind, rule.limit - n);
      }
      if (rules.length) await this.quota.updateAuthorization(em, input.requestId, rules.map((r) => r.ref), 'allowed');
      return { allowed: true, plan: planId, remaining_today: remaining.get('plan') ?? null, key_remaining_today: remaining.get('key') ?? null, reset_in_seconds: resetIn, duplicate: false };
    });
  }

  /**
   * Gives back what an authorization consumed, for a translation that failed. Idempotent; a request whose
   * usage was recorded (it did translate) keeps its units.
   */
  release(requestId: string): Promise<{ released: boolean }> {
    return this.uow.run(async (em) => {
      const a = await this.quota.findAuthorization(em, requestId, { lock: true });
      if (!a || a.status === 'released') return { released: false };
      if (await this.usage.recorded(em, requestId)) return { released: false };
      for (const ref of a.counters) await this.quota.decrement(em, ref);
      await this.quota.updateAuthorization(em, requestId, a.counters, 'released');
      return { released: true };
    });
  }
}
