/**
 * Production options for @nestjs/microservices `Transport.KAFKA` (kafkajs underneath).
 *
 * - consumers: one consumer group per service (`gaia-<service>`), shared by all its replicas, so each
 *   event is handled once per service; no auto topic creation; read from the beginning when a group is new
 *   (the inbox deduplicates); manual retries + dead-letter topic in `withDeadLetter`.
 * - producer: idempotent (one in-flight request, broker-side sequence numbers), `acks: -1` (all in-sync
 *   replicas), Java-compatible murmur2 partitioner so a key always maps to the same partition.
 * - `postfixId: ''`: Nest would otherwise append `-server` / `-client` to the group and client ids.
 */
import type { KafkaOptions } from '@nestjs/microservices';
import { Partitioners } from 'kafkajs';
import { consumerGroupId } from './kafka-topics';
import type { KafkaSettings } from './kafka-settings';

export type KafkaTransportOptions = NonNullable<KafkaOptions['options']>;
// Nest ships its own copy of the kafkajs types: use those so the options fit ServerKafka/ClientKafka.
type KafkaConfig = NonNullable<KafkaTransportOptions['client']>;
type ConsumerConfig = NonNullable<KafkaTransportOptions['consumer']>;
type ProducerConfig = NonNullable<KafkaTransportOptions['producer']>;

/** `acks: -1` = all in-sync replicas (required by the idempotent producer). */
export const KAFKA_ACKS_ALL = -1;
export const KAFKA_SEND_TIMEOUT_MS = 30_000;

export function kafkaClientConfig(settings: KafkaSettings, clientId: string): KafkaConfig {
  return {
    clientId,
    brokers: settings.brokers,
    ssl: settings.ssl,
    ...(settings.sasl ? { sasl: settings.sasl as KafkaConfig['sasl'] } : {}),
    connectionTimeout: 5_000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 300, maxRetryTime: 30_000, retries: 8 },
  };
}

export function kafkaProducerConfig(): ProducerConfig {
  return {
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner as unknown as ProducerConfig['createPartitioner'],
    transactionTimeout: 60_000,
  };
}

export function kafkaConsumerConfig(consumer: string): ConsumerConfig {
  return {
    groupId: consumerGroupId(consumer),
    allowAutoTopicCreation: false,
    sessionTimeout: 30_000,
    rebalanceTimeout: 60_000,
    heartbeatInterval: 3_000,
    maxBytesPerPartition: 1_048_576,
    readUncommitted: false,
    retry: { initialRetryTime: 300, maxRetryTime: 30_000, retries: 10 },
  };
}

/** Options of the ServerKafka that hosts one consumer group (`consumer` = service name). */
export function kafkaConsumerOptions(consumer: string, settings: KafkaSettings): KafkaTransportOptions {
  return {
    postfixId: '',
    client: kafkaClientConfig(settings, `${settings.clientId}-${consumer}-consumer`),
    consumer: kafkaConsumerConfig(consumer),
    subscribe: { fromBeginning: true },
    run: { autoCommit: true, partitionsConsumedConcurrently: 4 },
    // The server's producer publishes dead letters.
    producer: kafkaProducerConfig(),
    send: { acks: KAFKA_ACKS_ALL, timeout: KAFKA_SEND_TIMEOUT_MS },
  };
}

/** Options of the ClientKafka used by the outbox relay of a process (`processName` = service or `platform`). */
export function kafkaProducerOptions(processName: string, settings: KafkaSettings): KafkaTransportOptions {
  return {
    postfixId: '',
    client: kafkaClientConfig(settings, `${settings.clientId}-${processName}-producer`),
    producer: kafkaProducerConfig(),
    send: { acks: KAFKA_ACKS_ALL, timeout: KAFKA_SEND_TIMEOUT_MS },
    producerOnlyMode: true,
  };
}
