import type { ConsumerName } from '@gaia/contracts';

export type TransportKind = 'inprocess' | 'nats' | 'kafka';

export interface MessagingOptions {
  /** Name of this process (a service name, or `platform`); used in logs and NATS connection names. */
  processName: string;
  /** Consumer groups hosted by this process: it handles their events and the RPCs of these services. */
  consumers: readonly ConsumerName[];
  transport: TransportKind;
  /** Subject namespace on NATS (MESSAGING_NAMESPACE), so installations or test runs can share a server. */
  namespace?: string;
  natsUrl?: string;
  kafka?: { brokers: string[]; clientId: string; ssl?: boolean; sasl?: { mechanism: string; username: string; password: string } };
  /** Fallback poll interval of the outbox relay (it also wakes on LISTEN/NOTIFY). */
  outboxPollMs?: number;
  rpcTimeoutMs?: number;
  /** Run the outbox relay in this process (default true). */
  relay?: boolean;
  /** How long the relay waits for a consumer's acknowledgement. */
  deliveryTimeoutMs?: number;
}
