import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventMap } from '@gaia/contracts';

export type UsageRecordedV1 = EventMap['usage.recorded.v1'];

/** The outbox as this recorder uses it (`@gaia/shared/messaging` `Outbox`). */
export interface UsageOutbox {
  add(em: EntityManager, topic: 'usage.recorded.v1', payload: UsageRecordedV1, opts?: { id?: string; requestId?: string | null }): Promise<string>;
}

export interface UsageTransaction {
  run<T>(work: (em: EntityManager) => Promise<T>): Promise<T>;
}

export const USAGE_RECORDER = Symbol('USAGE_RECORDER');

/**
 * Records a completed request exactly once per `requestId`: the `usage.recorded.v1` event goes through
 * the transactional outbox with an id derived from the request id, so a retried request (same id)
 * is a no-op in the outbox (`ON CONFLICT (id) DO NOTHING`) and, should the outbox row be gone, the
 * consumers' inbox (keyed by event id) still applies it once. The translation service stores nothing else.
 */
export class UsageRecorder {
  constructor(private readonly uow: UsageTransaction, private readonly outbox: UsageOutbox) {}

  async record(usage: UsageRecordedV1): Promise<string> {
    return this.uow.run((em) => this.outbox.add(em, 'usage.recorded.v1', usage, { id: usageEventId(usage.requestId), requestId: usage.requestId }));
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
