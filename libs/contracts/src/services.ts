/** Deployable services. A consumer group is named after the service that hosts it. */
export const SERVICE_NAMES = ['gateway', 'agents', 'ingestion', 'retrieval', 'translation', 'billing'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Consumers: every service, plus `probe`, the diagnostics consumer used by the messaging self-tests. */
export type ConsumerName = ServiceName | 'probe';
