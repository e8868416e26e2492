import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { USAGE_BATCH_MAX_RECORDS, type EventMap } from '@gaia/contracts';

export type UsageRecordedV1 = EventMap['usage.recorded.v1'];
type UsageRecordedBatchV1 = EventMap['usage.recorded-batch.v1'];

/** The outbox as this recorder uses it (`@gaia/shared/messaging` `Outbox`). */
export interface UsageOutbox {
  add(em: EntityManager, topic: 'usage.recorded.v1', payload: UsageRecordedV1, opts?: { id?: string; requestId?: string | null }): Promise<string>;
  add(em: EntityManager, topic: 'usage.recorded-batch.v1', payload: UsageRecordedBatchV1, opts?: { id?: string; requestId?: string | null }): Promise<string>;
}

interface Waiting {
  usage: UsageRecordedV1;
  done: (eventId: string) => void;
  failed: (e: unknown) => void;
}

/** The billing call that stores usage directly (`@gaia/shared/messaging` `RpcClient`). */
export interface UsageRpc {
  call(name: 'billing.record-usage.v1', request: { records: UsageRecordedV1[] }, opts?: { timeoutMs?: number }): Promise<{ recorded: number }>;
}

/** How long the direct billing call may take before the usage goes through the outbox instead. */
export const USAGE_RPC_TIMEOUT_MS = 2000;
/** What `record` answers when billing stored the usage directly (no event). */
export const USAGE_STORED_BY_BILLING = 'billing';

export interface UsageTransaction {
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T>;
}

export const USAGE_RECORDER = Symbol('USAGE_RECORDER');

/** A completed record waits for the translations still running until this many records wait... */
export const USAGE_LINGER_RECORDS = 8;
/** ...or the first of them has waited this long (a translation that never says it ended costs at most this). */
export const USAGE_LINGER_MS = 10;

/** A translation under way whose usage is to be recorded: `record` once it completed, else `cancel` (idempotent). */
export interface UsageUnderWay {
  record(usage: UsageRecordedV1): Promise<string>;
  cancel(): void;
}

/**
 * Records a completed request exactly once per `requestId`: the `usage.recorded.v1` event goes through
 * the transactional outbox with an id derived from the request id, so a retried request (same id)
 * is a no-op in the outbox (`ON CONFLICT (id) DO NOTHING`) and, should the outbox row be gone, the
 * consumers' inbox (keyed by event id) still applies it once. The translation service stores nothing else.
 *
 * Group commit (issue #13): while one write is under way, the requests that complete meanwhile queue and
 * are written together by the next one. A write first asks billing to store the batch (`billing.record-usage.v1`:
 * one statement in billing, none here); when billing cannot answer, the batch goes through the outbox as one
 * `usage.recorded-batch.v1` event (or `usage.recorded.v1` for a lone record). Billing dedupes each record on
 * its request id, so a call that timed out after billing committed and the event that follows count once. Each
 * caller still waits for its record to be durable: nothing is acknowledged before, and a lone request is written
 * at once (no added latency).
 *
 * Waiting for the running ones (issue #13): a translation says it is under way (`begin`); a record that completes
 * while others still run waits for them — up to USAGE_LINGER_RECORDS records or USAGE_LINGER_MS — so a few
 * concurrent requests share one write instead of each taking its own round trip (the engine finishes them one
 * after another, so without this each write mostly carried one record). A translation with nothing else under
 * way is still written at once.
 */
export class UsageRecorder {
  private readonly queue: Waiting[] = [];
  private writing = false;
  /** Translations begun whose record has not come yet (neither recorded nor cancelled). */
  private running = 0;
  private lingering: NodeJS.Timeout | null = null;

  constructor(
    private readonly uow: UsageTransaction,
    private readonly outbox: UsageOutbox,
    private readonly billing: UsageRpc | null = null,
  ) {}

  /** A translation starts: records that complete before it wait for it (see the class). */
  begin(): UsageUnderWay {
    this.running++;
    let open = true;
    const close = (): void => {
      if (!open) return;
      open = false;
      this.running--;
    };
    return {
      record: (usage) => {
        close();
        return this.record(usage);
      },
      cancel: () => {
        if (!open) return;
        close();
        this.kick();
      },
    };
  }

  record(usage: UsageRecordedV1): Promise<string> {
    return new Promise<string>((done, failed) => {
      this.queue.push({ usage, done, failed });
      this.kick();
    });
  }

  /** Writes what waits now, unless translations still run and the batch is not full yet (then at most USAGE_LINGER_MS later). */
  private kick(): void {
    if (this.writing || !this.queue.length) return;
    if (this.running > 0 && this.queue.length < USAGE_LINGER_RECORDS) {
      this.lingering ??= setTimeout(() => void this.drain(), USAGE_LINGER_MS);
      return;
    }
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.lingering) clearTimeout(this.lingering);
    this.lingering = null;
    if (this.writing || !this.queue.length) return;
    this.writing = true;
    const batch = this.queue.splice(0, USAGE_BATCH_MAX_RECORDS);
    try {
      const id = await this.write(batch.map((w) => w.usage));
      for (const w of batch) w.done(id);
    } catch (e) {
      for (const w of batch) w.failed(e);
    } finally {
      this.writing = false;
    }
    this.kick();
  }

  private async write(records: UsageRecordedV1[]): Promise<string> {
    if (this.billing) {
      const stored = await this.billing.call('billing.record-usage.v1', { records }, { timeoutMs: USAGE_RPC_TIMEOUT_MS }).then(
        () => true,
        () => false, // billing unreachable or failing: the outbox keeps the usage durable here
      );
      if (stored) return USAGE_STORED_BY_BILLING;
    }
    return this.viaOutbox(records);
  }

  private viaOutbox(records: UsageRecordedV1[]): Promise<string> {
    if (records.length === 1) {
      const [usage] = records;
      return this.uow.run((em) => this.outbox.add(em, 'usage.recorded.v1', usage, { id: usageEventId(usage.requestId), requestId: usage.requestId }));
    }
    const id = usageEventId(records.map((r) => r.requestId).join('\n'));
    return this.uow.run((em) => this.outbox.add(em, 'usage.recorded-batch.v1', { records }, { id }));
  }
}

/** Deterministic UUID (v5 layout, SHA-1) of a request id: the usage event's id. */
export function usageEventId(requestId: string): string {
  const h = createHash('sha1').update(`gaia:usage.recorded.v1:${requestId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
