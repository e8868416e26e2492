import { Inject, Injectable } from '@nestjs/common';
import { RATE_COUNTER_REPOSITORY, type RateCounterRepositoryPort } from '@gaia/identity/data-access';
import { CLOCK, type Clock } from '@gaia/shared/kernel';
import type { RateLimitDecision, RateLimiter } from '../identity.tokens';

/**
 * Fixed windows aligned on the epoch (a 1-day window starts at 00:00 UTC), counted in Postgres with one
 * atomic upsert, so the limit holds across any number of gateway replicas.
 */
@Injectable()
export class PostgresRateLimiter implements RateLimiter {
  private hits = 0;
  constructor(
    @Inject(RATE_COUNTER_REPOSITORY) private readonly counters: RateCounterRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async hit(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const { now, start, end } = this.window(windowSeconds);
    const count = await this.counters.increment(bucket, new Date(start), new Date(end));
    if (++this.hits % 500 === 0) void this.counters.purgeExpired(new Date(now)).catch(() => undefined);
    return { allowed: count <= limit, count, limit, retryAfterSeconds: Math.max(1, Math.ceil((end - now) / 1000)) };
  }

  async peek(bucket: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const { now, start, end } = this.window(windowSeconds);
    const count = await this.counters.current(bucket, new Date(start));
    return { allowed: count < limit, count, limit, retryAfterSeconds: Math.max(1, Math.ceil((end - now) / 1000)) };
  }

  private window(windowSeconds: number): { now: number; start: number; end: number } {
    const now = this.clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    return { now, start, end: start + windowMs };
  }
}
