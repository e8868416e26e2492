/**
 * How an event envelope travels as a Kafka record: topic = event topic, key = the envelope key (the
 * event's key field, e.g. the agent id) or the event id when it has none, value = the JSON envelope,
 * headers = ids for tracing and deduplication without parsing the value.
 */
import type { EventEnvelope } from '@gaia/contracts';

export const KAFKA_HEADERS = {
  eventId: 'gaia-event-id',
  topic: 'gaia-topic',
  occurredAt: 'gaia-occurred-at',
  contentType: 'content-type',
  requestId: 'x-request-id',
  // dead-letter records
  dlqConsumerGroup: 'gaia-dlq-consumer-group',
  dlqOriginalTopic: 'gaia-dlq-original-topic',
  dlqOriginalPartition: 'gaia-dlq-original-partition',
  dlqOriginalOffset: 'gaia-dlq-original-offset',
  dlqAttempts: 'gaia-dlq-attempts',
  dlqError: 'gaia-dlq-error',
  dlqFailedAt: 'gaia-dlq-failed-at',
} as const;

export interface KafkaOutgoingMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

export function toKafkaMessage(envelope: EventEnvelope): KafkaOutgoingMessage {
  const headers: Record<string, string> = {
    [KAFKA_HEADERS.eventId]: envelope.id,
    [KAFKA_HEADERS.topic]: envelope.topic,
    [KAFKA_HEADERS.occurredAt]: envelope.occurredAt,
    [KAFKA_HEADERS.contentType]: 'application/json',
  };
  if (envelope.requestId) headers[KAFKA_HEADERS.requestId] = envelope.requestId;
  return { key: envelope.key ?? envelope.id, value: JSON.stringify(envelope), headers };
}

/** A producer record for kafkajs `producer.send` / `sendBatch`. */
export function toProducerRecord(envelope: EventEnvelope): { topic: string; messages: KafkaOutgoingMessage[] } {
  return { topic: envelope.topic, messages: [toKafkaMessage(envelope)] };
}

/** kafkajs gives header values as Buffer | string | (Buffer | string)[] | undefined. */
export function headerValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return headerValue(value[value.length - 1]);
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

export function fromKafkaValue(value: Buffer | string | null): EventEnvelope {
  if (value === null) throw new Error('Kafka record without a value');
  const parsed = JSON.parse(Buffer.isBuffer(value) ? value.toString('utf8') : value) as EventEnvelope;
  if (!parsed || typeof parsed.id !== 'string' || typeof parsed.topic !== 'string') throw new Error('Kafka record value is not an event envelope');
  return parsed;
}
