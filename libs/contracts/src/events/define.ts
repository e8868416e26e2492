import type { z } from 'zod';
import type { ConsumerName } from '../services';

/**
 * One event type. `topic` names are versioned (`<domain>.<event>.v<n>`) and never renamed: a breaking
 * change is a new topic. `subscribers` are the consumer groups that receive it (fan-out for
 * request/ack transports; on Kafka each is a consumer group of the topic).
 */
export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  readonly subscribers: readonly ConsumerName[];
  /** Payload field used as the partition/ordering key (e.g. `agentId`). */
  readonly keyField?: string;
  readonly description: string;
}

export function defineEvent<S extends z.ZodType>(def: EventDefinition<S>): EventDefinition<S> {
  return def;
}

export type EventRegistry = Record<string, EventDefinition>;

/** What travels on the wire for every event. */
export interface EventEnvelope<P = unknown> {
  id: string;
  topic: string;
  key: string | null;
  occurredAt: string;
  payload: P;
  /** Correlation id carried from the request that caused the event. */
  requestId?: string | null;
}
