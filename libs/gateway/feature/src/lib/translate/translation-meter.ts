import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { TranslationEventDto } from '@gaia/contracts';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import type { Principal } from '../auth/principal';

/** Backoff of giving units back while billing (or its database) is unreachable: 250 ms doubling to 10 s, ~5 min in all. */
export const RELEASE_RETRY_FIRST_MS = 250;
export const RELEASE_RETRY_MAX_MS = 10_000;
export const RELEASE_MAX_ATTEMPTS = 35;

/**
 * The gateway side of metering: every translation path (HTTP with a key or a session, the public
 * translator, Socket.IO `translate`, and a batch once per text) goes through `authorize` before it runs
 * and `meter` around its events. The rules live in billing (`billing.authorize.v1`); a translation that
 * fails — refused, an engine `error` event, a stream error such as a database outage — gives its units
 * back (`billing.release.v1`), retried with backoff while billing cannot be reached.
 */
@Injectable()
export class TranslationMeter implements OnModuleDestroy {
  private readonly logger = new Logger('Metering');
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** Consumes the caller's units for one translation (429 when a limit is reached). Idempotent on requestId. */
  async authorize(p: Principal, ip: string, requestId: string, words: number): Promise<void> {
    const isPublicKey = p.kind === 'key' && p.key.kind === 'public';
    await this.rpc.call('billing.authorize.v1', {
      requestId,
      keyId: p.kind === 'key' ? p.key.keyId : null,
      userId: p.kind === 'session' ? p.user.id : p.kind === 'key' ? p.key.userId : null,
      channel: isPublicKey ? 'public' : p.kind === 'key' ? 'api' : 'web',
      keyRateLimit: p.kind === 'key' && !isPublicKey ? p.key.rateLimit : null,
      ip,
      words,
    });
  }

  /** The events of an authorized translation; a failure (error event or stream error) gives its units back first. */
  meter(requestId: string, source: Observable<TranslationEventDto>): Observable<TranslationEventDto> {
    return new Observable<TranslationEventDto>((sub) => {
      let failed = false;
      const inner = source.subscribe({
        next: (e) => {
          if (e.type === 'error' && !failed) {
            failed = true;
            this.release(requestId);
          }
          sub.next(e);
        },
        error: (e: unknown) => {
          if (failed) return sub.error(e);
          failed = true;
          // The first attempt is awaited so a caller told "failed" already has its units back (when billing is up).
          void this.release(requestId).finally(() => sub.error(e));
        },
        complete: () => sub.complete(),
      });
      return () => inner.unsubscribe();
    });
  }

  /** Gives the units of a failed translation back; retried in the background while billing cannot be reached. */
  release(requestId: string, attempt = 1): Promise<void> {
    return this.rpc.call('billing.release.v1', { requestId }).then(
      () => undefined,
      (e: unknown) => {
        if (attempt >= RELEASE_MAX_ATTEMPTS) {
          this.logger.error(`units of ${requestId} not given back after ${attempt} attempts: ${(e as Error).message}`);
          return;
        }
        this.logger.warn(`giving back the units of ${requestId} failed (attempt ${attempt}), retrying: ${(e as Error).message}`);
        const delay = Math.min(RELEASE_RETRY_MAX_MS, RELEASE_RETRY_FIRST_MS * 2 ** (attempt - 1));
        const timer = setTimeout(() => {
          this.retries.delete(timer);
          void this.release(requestId, attempt + 1);
        }, delay);
        timer.unref();
        this.retries.add(timer);
      },
    );
  }

  onModuleDestroy(): void {
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
  }
}
