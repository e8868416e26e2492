import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { PlanId } from '@gaia/contracts';
import { QUOTA_REPOSITORY, type AuthorizationEntity, type CounterRef, type QuotaRepositoryPort } from '@gaia/billing/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import type { Clock } from '@gaia/shared/kernel';
import { BILLING_CLOCK } from './billing.tokens';
import type { CounterRule } from './metering.rules';

/** A lease takes at most this share of what is left below a limit (1/16): replicas never strand much of it. */
export const LEASE_SHARE = 16;
/** Units reserved per Postgres round trip at most. */
export const LEASE_MAX_BLOCK = 64;
/** Counters below this limit (the Free plan's 10 a day, the public translator's per-IP limits) stay exact per request. */
export const LEASE_MIN_LIMIT = 100;
/** Unused units of a lease idle this long go back to Postgres (other replicas may need them). */
export const LEASE_IDLE_MS = 1000;
/**
 * Authorizations taken from leases are written to Postgres in one statement at this pace (bookkeeping: the
 * units were counted when the block was reserved; a release finds an unwritten one in memory).
 */
export const AUTHORIZATION_FLUSH_MS = 1000;
/** Rows per authorization write at most. */
export const AUTHORIZATION_FLUSH_MAX = 500;
/** Unwritten authorizations above this many (Postgres unreachable): new requests take the exact per-request path. */
export const AUTHORIZATION_PENDING_MAX = 10_000;
/**
 * How long a user's plan and a key's owner are taken from memory before they are read again (a change made
 * through this process applies at once; through another billing replica, within this time).
 */
export const PLAN_CACHE_MS = 5000;

/** Pace of the lease housekeeping (tests slow the authorization writes down to crash a process between two). */
export interface QuotaLeaseOptions {
  flushMs: number;
  idleMs: number;
}
export const QUOTA_LEASE_OPTIONS = Symbol('QUOTA_LEASE_OPTIONS');
export const DEFAULT_QUOTA_LEASE_OPTIONS: QuotaLeaseOptions = { flushMs: AUTHORIZATION_FLUSH_MS, idleMs: LEASE_IDLE_MS };

interface Lease {
  ref: CounterRef;
  free: number;
  /** The counter in Postgres after this process's last reservation (units reserved by every process). */
  counted: number;
  /** Last unit handed out, in ms on the BILLING_CLOCK. */
  usedAt: number;
  /** The reservation under way (one at a time per counter: concurrent requests wait for it). */
  reserving: Promise<number> | null;
}

interface Pending {
  row: AuthorizationEntity;
  /** A write of it was attempted (it may have committed before the error): never taken for a duplicate then. */
  attempted: boolean;
  /** Counters the request holds units of (given back to the leases on release or when the id was known already). */
  taken: CounterRef[];
}

const leaseKey = (ref: CounterRef): string => `${ref.subject}\n${ref.window}`;

/**
 * Quota consumed in blocks (issue #13: at most one database round trip per translation on average). For a
 * counter with a large limit (a key's 1,000 a day, …) this process reserves a block of units in Postgres with
 * one conditional update (`reserve`: never past the limit, whichever process asks) and hands them out from
 * memory; its authorizations are written in batches. Guarantees:
 * - no over-spend: every unit handed out was counted in Postgres first;
 * - no double count: a request id already authorized (another process, a retry) gives its unit back when its
 *   row turns out to exist at the batched write; the usage record stays one per request id;
 * - a crash loses only unused reserved units (at most one block per counter: the caller is refused up to
 *   that many requests early that day, never allowed more); idle leases give their units back after 1 s.
 * Small limits (Free plan, public translator) keep the exact per-request path of `AuthorizeUseCase`.
 */
@Injectable()
export class QuotaLeases implements OnModuleDestroy {
  private readonly logger = new Logger('QuotaLeases');
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Pending>();
  private readonly plans = new Map<string, { plan: PlanId; at: number }>();
  private readonly keys = new Map<string, { userId: string | null; rateLimit: number | null; at: number }>();
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  /** When idle leases were last looked for (on the BILLING_CLOCK, as the lease ages). */
  private lastSweep: number;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    @Inject(QUOTA_REPOSITORY) private readonly quota: QuotaRepositoryPort,
    @Inject(QUOTA_LEASE_OPTIONS) private readonly options: QuotaLeaseOptions,
    @Inject(BILLING_CLOCK) private readonly clock: Clock,
  ) {
    this.lastSweep = clock.now().getTime();
    this.timer = setInterval(() => void this.tick(), options.flushMs);
    this.timer.unref();
  }

  /** Whether a request with these counters may take the lease path. */
  leaseable(channel: AuthorizationEntity['channel'], rules: CounterRule[]): boolean {
    return channel !== 'public' && this.pending.size < AUTHORIZATION_PENDING_MAX && rules.every((r) => r.limit >= LEASE_MIN_LIMIT);
  }

  /** The user's plan when read less than PLAN_CACHE_MS ago. */
  plan(userId: string): PlanId | undefined {
    const p = this.plans.get(userId);
    return p && this.clock.now().getTime() - p.at < PLAN_CACHE_MS ? p.plan : undefined;
  }

  rememberPlan(userId: string, plan: PlanId): void {
    this.plans.set(userId, { plan, at: this.clock.now().getTime() });
  }

  forgetPlan(userId: string): void {
    this.plans.delete(userId);
  }

  /** Whether billing already stored this key with this owner and limit (then nothing to write). */
  knowsKey(keyId: string, userId: string | null, rateLimit: number | null): { userId: string | null } | undefined {
    const k = this.keys.get(keyId);
    if (!k || this.clock.now().getTime() - k.at >= PLAN_CACHE_MS || k.rateLimit !== rateLimit || (userId !== null && k.userId !== userId)) return undefined;
    return { userId: k.userId };
  }

  rememberKey(keyId: string, userId: string | null, rateLimit: number | null): void {
    this.keys.set(keyId, { userId, rateLimit, at: this.clock.now().getTime() });
  }

  /** Whether this process holds an unwritten authorization of the request. */
  has(requestId: string): boolean {
    return this.pending.has(requestId);
  }

  /**
   * One unit of every rule from the leases (reserving a block in Postgres when one runs dry), recorded as an
   * authorization written with the next batch. Throws the refusal of the first rule whose limit is reached
   * (nothing kept).
   */
  async authorize(row: AuthorizationEntity, rules: CounterRule[]): Promise<Map<CounterRule['kind'], number>> {
    const taken: CounterRef[] = [];
    const remaining = new Map<CounterRule['kind'], number>();
    try {
      for (const rule of rules) {
        const left = await this.take(rule.ref, rule.limit);
        if (left === null) throw rule.refusal();
        taken.push(rule.ref);
        remaining.set(rule.kind, left);
      }
    } catch (e) {
      for (const ref of taken) this.putBack(ref, 1);
      throw e;
    }
    this.pending.set(row.requestId, { row: { ...row, counters: taken }, taken, attempted: false });
    return remaining;
  }

  /** Gives back the units of an unwritten authorization (a failed translation); false when it is not held here. */
  release(requestId: string): boolean {
    const p = this.pending.get(requestId);
    if (!p || p.row.status === 'released') return false;
    for (const ref of p.taken) this.putBack(ref, 1);
    p.row = { ...p.row, status: 'released' };
    p.taken = [];
    return true;
  }

  /**
   * A unit from the lease; null when the limit is reached. Answers the units left as this process knows them
   * (exact with one process; other processes' unused leases are counted as used).
   */
  private async take(ref: CounterRef, limit: number): Promise<number | null> {
    const lease = this.lease(ref);
    for (;;) {
      if (lease.free > 0) {
        lease.free--;
        lease.usedAt = this.clock.now().getTime();
        return Math.max(0, limit - lease.counted + lease.free);
      }
      if (lease.reserving) {
        await lease.reserving;
        continue;
      }
      lease.reserving = this.quota.reserve(this.ds.manager, ref, limit, LEASE_MAX_BLOCK, LEASE_SHARE).then(
        ({ granted, count }) => {
          lease.free += granted;
          lease.counted = count;
          lease.reserving = null;
          return granted;
        },
        (e: unknown) => {
          lease.reserving = null;
          throw e;
        },
      );
      if ((await lease.reserving) === 0 && lease.free === 0) return null;
    }
  }

  private lease(ref: CounterRef): Lease {
    const key = leaseKey(ref);
    let lease = this.leases.get(key);
    if (!lease) {
      lease = { ref, free: 0, counted: 0, usedAt: this.clock.now().getTime(), reserving: null };
      this.leases.set(key, lease);
    }
    return lease;
  }

  private putBack(ref: CounterRef, units: number): void {
    this.lease(ref).free += units;
  }

  private async tick(): Promise<void> {
    await this.flush().catch((e: Error) => this.logger.warn(`authorizations not written yet (retrying): ${e.message}`));
    const now = this.clock.now().getTime();
    if (now - this.lastSweep >= this.options.idleMs) {
      this.lastSweep = now;
      await this.returnIdle(this.options.idleMs).catch((e: Error) => this.logger.warn(`idle quota not given back yet: ${e.message}`));
    }
  }

  /** Writes the pending authorizations (one statement per AUTHORIZATION_FLUSH_MAX rows). */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (!this.pending.size) return Promise.resolve();
    this.flushing = (async () => {
      try {
        while (this.pending.size) {
          const batch = [...this.pending.values()].slice(0, AUTHORIZATION_FLUSH_MAX);
          const retried = batch.filter((p) => p.attempted);
          for (const p of batch) p.attempted = true;
          const fresh = await this.quota.insertAuthorizations(
            this.ds.manager,
            batch.map((p) => p.row),
          );
          for (const p of batch) {
            // Known already (a retried request id): counted once, so its unit goes back.
            if (!fresh.has(p.row.requestId) && !retried.includes(p)) for (const ref of p.taken) this.putBack(ref, 1);
            this.pending.delete(p.row.requestId);
          }
        }
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** Gives the unused units of leases idle for `idleMs` (on the BILLING_CLOCK) back to Postgres. */
  async returnIdle(idleMs: number): Promise<void> {
    const now = this.clock.now().getTime();
    for (const [key, lease] of [...this.leases]) {
      if (now - lease.usedAt < idleMs || lease.reserving) continue;
      this.leases.delete(key);
      if (lease.free > 0) {
        try {
          await this.quota.giveBack(this.ds.manager, lease.ref, lease.free);
        } catch (e) {
          this.putBack(lease.ref, lease.free);
          throw e;
        }
      }
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((e: Error) => this.logger.error(`authorizations not written at shutdown: ${e.message}`));
    await this.returnIdle(0).catch((e: Error) => this.logger.error(`quota not given back at shutdown: ${e.message}`));
  }
}
