import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_KEY_RATE_LIMIT, type PlanId, type RpcResponse } from '@gaia/contracts';
import { QUOTA_REPOSITORY, USAGE_REPOSITORY, type QuotaRepositoryPort, type UsageRepositoryPort } from '@gaia/billing/data-access';
import { UNIT_OF_WORK, type UnitOfWork } from '@gaia/shared/database';
import type { Clock } from '@gaia/shared/kernel';
import { BILLING_CLOCK, PUBLIC_TRANSLATOR_LIMITS } from '../billing.tokens';
import { DEFAULT_PLAN, PLANS, secondsUntilNextUtcDay } from '../billing.rules';
import { meteringRules, type CounterRule, type MeteredCaller, type PublicTranslatorLimits } from '../metering.rules';
import { QuotaLeases } from '../quota-leases';
import { PurgeCountersUseCase } from '../purge-counters/purge-counters.use-case';

export { keyCounter, keyLimitError, planCounter, planLimitError } from '../metering.rules';

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
 * Counters with large limits (paid plans' keys, sessions without a daily limit) are served from `QuotaLeases`
 * (blocks reserved in Postgres, authorizations written in batches): no database round trip per request.
 */
@Injectable()
export class AuthorizeUseCase {
  constructor(
    @Inject(UNIT_OF_WORK) private readonly uow: UnitOfWork,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
    @Inject(USAGE_REPOSITORY) private readonly usage: UsageRepositoryPort,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
    @Inject(PUBLIC_TRANSLATOR_LIMITS) private readonly publicLimits: PublicTranslatorLimits,
    private readonly leases: QuotaLeases,
    private readonly purge: PurgeCountersUseCase,
  ) {}

  async authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    const leased = await this.fromLeases(input);
    if (leased) return leased;
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
        this.leases.rememberKey(input.keyId, userId, keyLimit);
      }
      const planId: PlanId = (userId ? await this.quota.getPlan(em, userId) : null) ?? DEFAULT_PLAN;
      if (userId) this.leases.rememberPlan(userId, planId);
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
        return {
          allowed: true,
          plan: prior?.plan ?? planId,
          remaining_today: remaining.get('plan') ?? null,
          key_remaining_today: remaining.get('key') ?? null,
          reset_in_seconds: resetIn,
          duplicate: true,
        };
      }
      for (const rule of rules) {
        const n = await this.quota.tryIncrement(em, rule.ref, rule.limit);
        if (n === null) throw rule.refusal();
        remaining.set(rule.kind, rule.limit - n);
      }
      if (input.channel === 'public') await this.purge.publicAuthorized(em); // per-IP counters are purged once expired
      if (rules.length)
        await this.quota.updateAuthorization(
          em,
          input.requestId,
          rules.map((r) => r.ref),
          'allowed',
        );
      return {
        allowed: true,
        plan: planId,
        remaining_today: remaining.get('plan') ?? null,
        key_remaining_today: remaining.get('key') ?? null,
        reset_in_seconds: resetIn,
        duplicate: false,
      };
    });
  }

  /**
   * Gives back what an authorization consumed, for a translation that failed. Idempotent; a request whose
   * usage was recorded (it did translate) keeps its units.
   */
  async release(requestId: string): Promise<{ released: boolean }> {
    if (this.leases.has(requestId)) {
      if (await this.uow.run((em) => this.usage.recorded(em, requestId))) return { released: false };
      return { released: this.leases.release(requestId) };
    }
    return this.uow.run(async (em) => {
      const a = await this.quota.findAuthorization(em, requestId, { lock: true });
      if (!a || a.status === 'released') return { released: false };
      if (await this.usage.recorded(em, requestId)) return { released: false };
      for (const ref of a.counters) await this.quota.decrement(em, ref);
      await this.quota.updateAuthorization(em, requestId, a.counters, 'released');
      return { released: true };
    });
  }

  /**
   * The lease path: when the key's owner and the user's plan are known (read in the last PLAN_CACHE_MS) and
   * every counter has a large limit, the units come from this process's leases; null = take the exact path.
   */
  private async fromLeases(input: AuthorizeInput): Promise<AuthorizeResult | null> {
    const now = this.clock.now();
    const keyLimit = input.keyRateLimit === undefined ? DEFAULT_KEY_RATE_LIMIT : input.keyRateLimit;
    let userId = input.userId;
    if (input.keyId && input.channel === 'api') {
      const known = this.leases.knowsKey(input.keyId, userId, keyLimit);
      if (!known) return null;
      userId = userId ?? known.userId;
    }
    const planId = userId ? this.leases.plan(userId) : DEFAULT_PLAN;
    if (!planId) return null;
    const resetIn = secondsUntilNextUtcDay(now);
    const rules = meteringRules({ channel: input.channel, userId, keyId: input.keyId, keyLimit, ip: input.ip ?? null }, PLANS[planId], now, this.publicLimits);
    if (this.leases.has(input.requestId)) {
      return { allowed: true, plan: planId, remaining_today: null, key_remaining_today: null, reset_in_seconds: resetIn, duplicate: true };
    }
    if (!this.leases.leaseable(input.channel, rules)) return null;
    const remaining = await this.leases.authorize(
      { requestId: input.requestId, userId, keyId: input.keyId, channel: input.channel, plan: planId, counters: [], status: 'allowed', createdAt: now },
      rules,
    );
    return {
      allowed: true,
      plan: planId,
      remaining_today: remaining.get('plan') ?? null,
      key_remaining_today: remaining.get('key') ?? null,
      reset_in_seconds: resetIn,
      duplicate: false,
    };
  }
}
