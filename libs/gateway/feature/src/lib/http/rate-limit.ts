import { DomainError } from '@gaia/shared/kernel';
import type { RateLimiter } from '@gaia/identity/feature';
import type { RateRule } from '../gateway.options';

export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

/** Applies every rule to a bucket; the first one exceeded fails with 429 and its Retry-After. */
export async function enforceRateRules(limiter: RateLimiter, bucket: string, rules: readonly RateRule[], message = TOO_MANY_REQUESTS): Promise<void> {
  for (const r of rules) {
    const d = await limiter.hit(`${bucket}:${r.windowSeconds}`, r.limit, r.windowSeconds);
    if (!d.allowed) throw DomainError.tooMany(message, d.retryAfterSeconds);
  }
}

/** Refuses with 429 when any rule's current window is already full (counts nothing). */
export async function assertUnderRateRules(
  limiter: RateLimiter,
  bucket: string,
  rules: readonly RateRule[],
  message = TOO_MANY_REQUESTS,
  code?: string,
): Promise<void> {
  for (const r of rules) {
    const d = await limiter.peek(`${bucket}:${r.windowSeconds}`, r.limit, r.windowSeconds);
    if (!d.allowed) throw DomainError.tooMany(message, d.retryAfterSeconds, code);
  }
}

/** Counts one hit in every rule's window (no refusal). */
export async function countRateRules(limiter: RateLimiter, bucket: string, rules: readonly RateRule[]): Promise<void> {
  for (const r of rules) await limiter.hit(`${bucket}:${r.windowSeconds}`, r.limit, r.windowSeconds);
}
