/**
 * Kafka topic plan, derived from the event registry of @gaia/contracts: one topic per event type (the
 * versioned event name itself), records keyed by the event's key field so that the events of one agent
 * (or one request) stay in one partition and keep their order, one consumer group per subscribing
 * service, and one dead-letter topic `<topic>.dlq` per topic.
 */
import { EVENTS, type EventDefinition } from '@gaia/contracts';

export const DEFAULT_PARTITIONS = 12;
export const DLQ_SUFFIX = '.dlq';

/** Partition counts that differ from the default (volume or ordering needs). */
export const PARTITION_OVERRIDES: Readonly<Record<string, number>> = {
  'diagnostics.probe.v1': 1,
};

export interface KafkaTopicSpec {
  topic: string;
  partitions: number;
  /** Payload field used as the record key (the partition / ordering key). */
  keyField: string | null;
  /** Consumer groups reading the topic (`gaia-<service>`). */
  consumerGroups: string[];
  deadLetterTopic: string;
  description: string;
}

export function deadLetterTopic(topic: string): string {
  return `${topic}${DLQ_SUFFIX}`;
}

export function consumerGroupId(consumer: string): string {
  return `gaia-${consumer}`;
}

/** Kafka's legal topic names: [a-zA-Z0-9._-], 1..249 chars, not "." or "..". */
export function isLegalTopicName(name: string): boolean {
  return /^[a-zA-Z0-9._-]{1,249}$/.test(name) && name !== '.' && name !== '..';
}

export function kafkaTopicPlan(events: Readonly<Record<string, EventDefinition>> = EVENTS as Record<string, EventDefinition>): KafkaTopicSpec[] {
  return Object.entries(events)
    .map(([topic, def]) => {
      if (!isLegalTopicName(deadLetterTopic(topic))) throw new Error(`event topic "${topic}" is not a legal Kafka topic name`);
      return {
        topic,
        partitions: PARTITION_OVERRIDES[topic] ?? DEFAULT_PARTITIONS,
        keyField: def.keyField ?? null,
        consumerGroups: [...def.subscribers].map(consumerGroupId).sort(),
        deadLetterTopic: deadLetterTopic(topic),
        description: def.description,
      };
    })
    .sort((a, b) => a.topic.localeCompare(b.topic));
}

/** Topic configuration for provisioning (replication 3 / min ISR 2 fit `acks=all` with one broker down). */
export function topicsToCreate(
  plan: KafkaTopicSpec[],
  replicationFactor = 3,
): { topic: string; numPartitions: number; replicationFactor: number; configEntries: { name: string; value: string }[] }[] {
  const minIsr = String(Math.max(1, Math.min(2, replicationFactor - 1)));
  return plan.flatMap((t) => [
    {
      topic: t.topic,
      numPartitions: t.partitions,
      replicationFactor,
      configEntries: [
        { name: 'min.insync.replicas', value: minIsr },
        { name: 'retention.ms', value: String(7 * 24 * 3600 * 1000) },
      ],
    },
    {
      topic: t.deadLetterTopic,
      numPartitions: Math.min(t.partitions, 3),
      replicationFactor,
      configEntries: [
        { name: 'min.insync.replicas', value: minIsr },
        { name: 'retention.ms', value: String(30 * 24 * 3600 * 1000) },
      ],
    },
  ]);
}

export const KAFKA_TOPICS_BEGIN = '<!-- kafka-topics:begin (generated from libs/contracts events; do not edit by hand) -->';
export const KAFKA_TOPICS_END = '<!-- kafka-topics:end -->';

/** The generated table of docs/kafka-topics.md. */
export function renderKafkaTopicsTable(plan: KafkaTopicSpec[] = kafkaTopicPlan()): string {
  const rows = plan.map(
    (t) =>
      `| \`${t.topic}\` | ${t.partitions} | ${t.keyField ? `\`${t.keyField}\`` : 'event id'} | ${t.consumerGroups.map((g) => `\`${g}\``).join(', ') || '—'} | \`${t.deadLetterTopic}\` | ${t.description.replace(/\|/g, '\\|')} |`,
  );
  return [
    KAFKA_TOPICS_BEGIN,
    '| topic | partitions | record key | consumer groups | dead-letter topic | event |',
    '|---|---|---|---|---|---|',
    ...rows,
    KAFKA_TOPICS_END,
  ].join('\n');
}
