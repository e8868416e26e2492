import type { PlanDto } from '@gaia/contracts';
import type { CounterRef } from '@gaia/billing/data-access';
import { DomainError } from '@gaia/shared/kernel';
import { dayWindow, secondsUntilNextUtcDay } from './billing.rules';

/**
 * Who a translation is metered for (every translation path: API key, session — dashboard test translator
 * and Socket.IO — and the public translator key).
 * - `api`: a user's API key: the plan's daily calls of its owner + the key's daily rate limit.
 * - `web`: a signed-in user's session: the plan's daily calls (the same counter as the API: the Free plan's
 *   10 a day cover every path).
 * - `public`: the public translator key (anonymous): per client IP, per minute and per day (configured).
 */
export interface MeteredCaller {
  channel: 'api' | 'web' | 'public';
  userId: string | null;
  keyId: string | null;
  /** The key's daily limit (null = none). */
  keyLimit: number | null;
  /** Client IP (public channel). */
  ip: string | null;
}

/** Per-IP limits of the anonymous public translator (APP_CONFIG PUBLIC_TRANSLATE_PER_IP_PER_*). */
export interface PublicTranslatorLimits {
  perIpPerMinute: number;
  perIpPerDay: number;
}

/** One counter a translation consumes a unit of, its limit, and the refusal when the limit is reached. */
export interface CounterRule {
  kind: 'plan' | 'key' | 'ip-minute' | 'ip-day';
  ref: CounterRef;
  limit: number;
  refusal(): DomainError;
}

/** Defaults of the catalog (PUBLIC_TRANSLATE_PER_IP_PER_MINUTE / _PER_DAY). */
export const DEFAULT_PUBLIC_TRANSLATOR_LIMITS: PublicTranslatorLimits = { perIpPerMinute: 20, perIpPerDay: 200 };

export const PUBLIC_KEY_LIMIT_MESSAGE = 'Too many requests from your network with the public key. Please try again later, or create your own API key.';

const MINUTE_MS = 60_000;
/** Minute window key, e.g. `m:2026-11-22T10:41` (UTC). */
export const minuteWindow = (now: Date): string => `m:${now.toISOString().slice(0, 16)}`;
/** Whole seconds until the next UTC minute (at least 1). */
export const secondsUntilNextMinute = (now: Date): number => Math.max(1, Math.ceil((MINUTE_MS - (now.getTime() % MINUTE_MS)) / 1000));

export const planCounter = (userId: string, now: Date): CounterRef => ({ subject: `user:${userId}:api-calls`, window: dayWindow(now) });
export const keyCounter = (keyId: string, now: Date): CounterRef => ({ subject: `key:${keyId}:requests`, window: dayWindow(now) });
export const publicIpCounters = (ip: string, now: Date): { minute: CounterRef; day: CounterRef } => ({
  minute: { subject: `public-ip:${ip}`, window: minuteWindow(now) },
  day: { subject: `public-ip:${ip}`, window: dayWindow(now) },
});

export function planLimitError(limit: number, retryAfterSeconds: number): DomainError {
  return DomainError.tooMany(
    `Daily limit reached: the Free plan allows ${limit} API calls per day (the dashboard's test translator included). The API is available again after the daily reset at 00:00 UTC, or upgrade your plan.`,
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
 * Every metering rule, in one place: the counters one translation consumes, in the order they are checked.
 * A refusal by any of them consumes nothing (the caller's transaction rolls back).
 */
export function meteringRules(caller: MeteredCaller, plan: PlanDto, now: Date, publicLimits: PublicTranslatorLimits): CounterRule[] {
  const rules: CounterRule[] = [];
  const resetIn = secondsUntilNextUtcDay(now);
  const dailyCalls = plan.daily_api_calls;
  if (caller.channel !== 'public' && caller.userId && dailyCalls !== null) {
    rules.push({ kind: 'plan', ref: planCounter(caller.userId, now), limit: dailyCalls, refusal: () => planLimitError(dailyCalls, resetIn) });
  }
  const keyLimit = caller.keyLimit;
  if (caller.channel === 'api' && caller.keyId && keyLimit !== null) {
    rules.push({ kind: 'key', ref: keyCounter(caller.keyId, now), limit: keyLimit, refusal: () => keyLimitError(keyLimit, resetIn) });
  }
  if (caller.channel === 'public') {
    const ip = publicIpCounters(caller.ip ?? 'unknown', now);
    rules.push({
      kind: 'ip-minute',
      ref: ip.minute,
      limit: publicLimits.perIpPerMinute,
      refusal: () => DomainError.tooMany(PUBLIC_KEY_LIMIT_MESSAGE, secondsUntilNextMinute(now), 'rate_limited'),
    });
    rules.push({
      kind: 'ip-day',
      ref: ip.day,
      limit: publicLimits.perIpPerDay,
      refusal: () => DomainError.tooMany(PUBLIC_KEY_LIMIT_MESSAGE, resetIn, 'rate_limited'),
    });
  }
  return rules;
}
