import type { KeyUsageDto, UsageSummaryDto } from '@gaia/contracts';

export type BillingPeriod = UsageSummaryDto['period'];

/**
 * Whether an API key's own daily limit binds before the plan does, so it is worth showing: always when the plan
 * has no daily call limit (Starter, Enterprise bill words), otherwise only when the key allows fewer calls a day.
 */
export function keyLimitBinds(period: Pick<BillingPeriod, 'daily_api_calls'>, key: Pick<KeyUsageDto, 'rate_limit'>): boolean {
  return period.daily_api_calls === null || key.rate_limit < period.daily_api_calls;
}

/** Share of an allowance used, 0..1 (0 without an allowance). */
export function usedShare(used: number, allowance: number | null): number {
  if (!allowance || allowance <= 0) return 0;
  return Math.min(1, Math.max(0, used / allowance));
}
