import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DEFAULT_KEY_RATE_LIMIT, type KeyUsageDto, type UsageSummaryDto } from '@gaia/contracts';
import {
  PLAN_HISTORY_REPOSITORY,
  QUOTA_REPOSITORY,
  USAGE_REPOSITORY,
  type PlanHistoryRepositoryPort,
  type QuotaRepositoryPort,
  type UsageRepositoryPort,
} from '@gaia/billing/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import type { Clock } from '@gaia/shared/kernel';
import { keyCounter, planCounter } from '../authorize/authorize.use-case';
import { BILLING_CLOCK } from '../billing.tokens';
import { billingMonth, cents, DEFAULT_PLAN, lastDays, PLANS, tokenCost, utcDayStart } from '../billing.rules';
import { periodStatement, planSegments } from './billing-period.rules';

/** Usage pages: per key (API tab) and per user (dashboard stat cards and chart, current bill). */
@Injectable()
export class UsageQueriesUseCase {
  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(USAGE_REPOSITORY) private readonly usage: UsageRepositoryPort,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
    @Inject(PLAN_HISTORY_REPOSITORY) private readonly history: PlanHistoryRepositoryPort,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
  ) {}

  async keyUsage(keyId: string, limit: number): Promise<KeyUsageDto> {
    const em = this.ds.manager;
    const [t, requests, key, today] = await Promise.all([
      this.usage.keyTotals(em, keyId),
      this.usage.keyRequests(em, keyId, limit),
      this.quota.findKey(em, keyId),
      this.quota.count(em, keyCounter(keyId, this.clock.now())),
    ]);
    const cost = tokenCost(t.inputTokens, t.outputTokens);
    return {
      total_requests: t.requests,
      rate_limit: key?.rateLimit ?? DEFAULT_KEY_RATE_LIMIT,
      requests_today: today,
      input_cost: cost.input_cost,
      output_cost: cost.output_cost,
      total_cost: cost.total_cost,
      average_tokens_per_request: t.requests ? Math.round(((t.inputTokens + t.outputTokens) / t.requests) * 100) / 100 : 0,
      requests: requests.map((r) => ({ input_tokens: r.inputTokens, output_tokens: r.outputTokens, words: r.words, created_at: r.occurredAt.toISOString() })),
    };
  }

  async summary(userId: string, days: number): Promise<UsageSummaryDto> {
    const em = this.ds.manager;
    const now = this.clock.now();
    const dates = lastDays(now, days);
    const from = new Date(`${dates[0]}T00:00:00.000Z`);
    const to = new Date(utcDayStart(now).getTime() + 86_400_000);
    const month = billingMonth(now);
    const planId = (await this.quota.getPlan(em, userId)) ?? DEFAULT_PLAN;
    const plan = PLANS[planId];
    const [all, daily, changes, callsToday] = await Promise.all([
      this.usage.userTotals(em, userId),
      this.usage.userDaily(em, userId, from, to),
      this.history.changes(em, userId, month.start, month.end),
      this.quota.count(em, planCounter(userId, now)),
    ]);
    const byDate = new Map(daily.map((d) => [d.date, d]));
    // Words are counted per plan segment of the month (proration), each against its own allowance and rate.
    const segments = planSegments(month, planId, changes);
    const words = await Promise.all(segments.map(async (seg) => (await this.usage.userTotals(em, userId, seg.start, seg.end)).words));
    const charge = periodStatement(PLANS, month, segments, words);
    return {
      total_requests: all.requests,
      total_words: all.words,
      total_cost: tokenCost(all.inputTokens, all.outputTokens).total_cost,
      plan: plan.name,
      series: dates.map((date) => {
        const d = byDate.get(date);
        return { date, requests: d?.requests ?? 0, words: d?.words ?? 0, cost: d ? tokenCost(d.inputTokens, d.outputTokens).total_cost : 0 };
      }),
      period: {
        start: month.start.toISOString(),
        end: month.end.toISOString(),
        words: charge.words,
        included_words: charge.included_words,
        overage_words: charge.overage_words,
        overage_cost: charge.overage_cost,
        plan_price: charge.plan_price,
        amount_due: charge.amount_due,
        api_calls_today: callsToday,
        daily_api_calls: plan.daily_api_calls,
        segments: charge.segments.map((c) => ({
          plan: c.plan,
          start: c.start.toISOString(),
          end: c.end.toISOString(),
          share: c.share,
          words: c.words,
          included_words: c.included_words,
          overage_words: c.overage_words,
          overage_cost: cents(c.overage_micros),
          plan_price: cents(c.price_micros),
        })),
      },
    };
  }
}
