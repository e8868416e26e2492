import { Inject, Injectable } from '@nestjs/common';
import { IDEMPOTENCY_REPOSITORY, type IdempotencyRepositoryPort } from '@gaia/identity/data-access';
import { CLOCK, DomainError, type Clock } from '@gaia/shared/kernel';

export type IdempotencyStart = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

const KEY_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

/** How long a stored answer is replayed (a day is plenty for client retries); ages are on the CLOCK. */
export const REPLAY_WINDOW_MS = 24 * 3600 * 1000;
/** Every this many requests, records older than the replay window are purged (in the background). */
export const PURGE_EVERY_CALLS = 200;

/**
 * `Idempotency-Key` on writes: the first request with (scope, route, key) runs and its answer is stored;
 * a repeat with the same body replays it; a different body is 422; a repeat while the first still runs is 409.
 */
@Injectable()
export class IdempotencyService {
  private calls = 0;
  constructor(
    @Inject(IDEMPOTENCY_REPOSITORY) private readonly records: IdempotencyRepositoryPort,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async begin(scope: string, route: string, key: string, requestHash: string): Promise<IdempotencyStart> {
    if (!KEY_PATTERN.test(key))
      throw DomainError.invalid('Idempotency-Key must be 1-200 characters of letters, digits, ".", "_", ":" or "-".', 'invalid_idempotency_key');
    const now = this.clock.now();
    if (++this.calls % PURGE_EVERY_CALLS === 0) void this.records.purgeOlderThan(new Date(now.getTime() - REPLAY_WINDOW_MS)).catch(() => undefined);
    const r = await this.records.claim(scope, route, key, requestHash, now);
    if (r.claimed) return { kind: 'new' };
    if (r.record.requestHash !== requestHash) {
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.', 422);
    }
    if (r.record.state === 'pending') throw DomainError.conflict('A request with this Idempotency-Key is still being processed.', 'idempotency_in_progress');
    return { kind: 'replay', status: r.record.status ?? 200, body: r.record.body };
  }

  complete(scope: string, route: string, key: string, status: number, body: unknown): Promise<void> {
    return this.records.complete(scope, route, key, status, body);
  }

  release(scope: string, route: string, key: string): Promise<void> {
    return this.records.release(scope, route, key);
  }
}
