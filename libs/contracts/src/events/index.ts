import type { z } from 'zod';
import { agentsEvents } from './agents.events';
import { billingEvents } from './billing.events';
import { diagnosticsEvents } from './diagnostics.events';
import { identityEvents } from './identity.events';
import { ingestionEvents } from './ingestion.events';
import { retrievalEvents } from './retrieval.events';
import { translationEvents } from './translation.events';
import type { EventDefinition, EventEnvelope } from './define';

export * from './define';
export * from './translation.events';
export * from './ingestion.events';
export * from './agents.events';
export * from './billing.events';
export * from './identity.events';
export { agentsEvents, billingEvents, diagnosticsEvents, identityEvents, ingestionEvents, retrievalEvents, translationEvents };

/** Every event the platform knows, by topic. */
export const EVENTS = {
  ...diagnosticsEvents,
  ...agentsEvents,
  ...identityEvents,
  ...ingestionEvents,
  ...retrievalEvents,
  ...translationEvents,
  ...billingEvents,
} as const;

export type Topic = keyof typeof EVENTS;
export type EventMap = { [K in Topic]: (typeof EVENTS)[K] extends EventDefinition<infer S> ? z.infer<S> : never };
export type TypedEnvelope<T extends Topic> = EventEnvelope<EventMap[T]>;

export function isTopic(value: string): value is Topic {
  return Object.prototype.hasOwnProperty.call(EVENTS, value);
}

export function eventDefinition(topic: Topic): EventDefinition {
  return EVENTS[topic] as EventDefinition;
}
