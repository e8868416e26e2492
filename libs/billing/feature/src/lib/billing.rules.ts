import type { PlanDto, PlanId } from '@gaia/contracts';

/** Plans of spec §9 (prices in dollars). */
export const PLANS: Record<PlanId, PlanDto> = {
  free: { id: 'free', name: 'Free', price: 0, period: 'month', daily_api_calls: 10, included_words: null, overage_per_1000_words: null },
  starter: { id: 'starter', name: 'Starter', price: 30, period: 'month', daily_api_calls: null, included_words: 5_000, overage_per_1000_words: 2.5 },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    price: 1_000,
    period: 'month',
    daily_api_calls: null,
    included_words: 100_000,
    overage_per_1000_words: 1,
  },
};
export const DEFAULT_PLAN: PlanId = 'free';

/** Micro-dollars per token (spec §9: $3 per million input tokens, $15 per million output tokens). */
export const INPUT_MICROS_PER_TOKEN = 3;
export const OUTPUT_MICROS_PER_TOKEN = 15;

/** Micro-dollars per dollar: amounts are exact integers until rounded for display. */
export const MICROS = 1_000_000;
/** Dollars from micro-dollars, with the 6 decimals the dashboard shows. */
export const dollars = (micros: number): number => Math.round(micros) / MICROS;
/** Dollars rounded to cents (amounts due). */
export const cents = (micros: number): number => Math.round(micros / 10_000) / 100;

export interface TokenCost {
  input_cost: number;
  output_cost: number;
  total_cost: number;
  /** Exact micro-dollars of the total. */
  micros: number;
}

export function tokenCost(inputTokens: number, outputTokens: number): TokenCost {
  const inMicros = inputTokens * INPUT_MICROS_PER_TOKEN;
  const outMicros = outputTokens * OUTPUT_MICROS_PER_TOKEN;
  return { input_cost: dollars(inMicros), output_cost: dollars(outMicros), total_cost: dollars(inMicros + outMicros), micros: inMicros + outMicros };
}

const DAY_MS = 86_400_000;

/** Start of the UTC day of `now`. */
export const utcDayStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
/** Daily window key, e.g. `d:2026-11-22` (UTC). */
export const dayWindow = (now: Date): string => `d:${utcDayStart(now).toISOString().slice(0, 10)}`;
/** Whole seconds until the next UTC midnight (at least 1): the Retry-After of a daily limit. */
export const secondsUntilNextUtcDay = (now: Date): number => Math.max(1, Math.ceil((utcDayStart(now).getTime() + DAY_MS - now.getTime()) / 1000));

/** The billing month (calendar month, UTC) containing `now`: [start, end). */
export function billingMonth(now: Date): { start: Date; end: Date } {
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** The `days` UTC dates ending with today's, oldest first (YYYY-MM-DD). */
export function lastDays(now: Date, days: number): string[] {
  const today = utcDayStart(now).getTime();
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}
