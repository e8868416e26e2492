/**
 * The production Kafka configuration on the wire: the real @nestjs/microservices ClientKafka and kafkajs
 * producer talk TCP to a broker double (testing/kafka-wire.double.ts) that decodes the Kafka protocol
 * (ApiVersions, Metadata, InitProducerId, Produce with RecordBatch v2) and records what was produced.
 */
import { lastValueFrom } from 'rxjs';
import { ClientKafka, KafkaContext } from '@nestjs/microservices';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import type { EventEnvelope } from '@gaia/contracts';
import { KafkaDeliverer } from '../event-deliverer';
import { BROKER_SUBSCRIBER } from '../outbox';
import { kafkaClientConfig, kafkaProducerConfig, kafkaProducerOptions } from './kafka-options.factory';
import { toKafkaMessage } from './kafka-message';
import { withDeadLetter } from './kafka-dead-letter';
import type { KafkaSettings } from './kafka-settings';
import { KafkaWireDouble, crc32c } from './testing/kafka-wire.double';
// Real kafkajs clients against the wire double: group joins and rebalances take longer on a loaded machine. Every
// condition is awaited with its own deadline (waitFor), so Jest's 5 s default must not cut a test short.
const WIRE_TEST_TIMEOUT_MS = 120_000;
jest.setTimeout(WIRE_TEST_TIMEOUT_MS);

const TOPIC = 'usage.recorded.v1';
const PARTITIONS = 12;

function envelope(i: number, agent: string): EventEnvelope {
  return { id: `ev-${i}`, topic: TOPIC, key: agent, occurredAt: '2026-11-22T05:00:00.000Z', payload: { seq: i, agentId: agent }, requestId: `req-${i}` };
}

/** The partition Kafka's Java-compatible murmur2 partitioner assigns to a key. */
function expectedPartition(key: string): number {
  const partitionMetadata = Array.from({ length: PARTITIONS }, (_, i) => ({ partitionId: i, leader: 1, replicas: [1], isr: [1], partitionErrorCode: 0 }));
  return Partitioners.DefaultPartitioner()({ topic: TOPIC, partitionMetadata, message: { key, value: null } });
}

describe('Kafka producer on the wire', () => {
  let double: KafkaWireDouble;
  let settings: KafkaSettings;

  beforeEach(async () => {
    double = new KafkaWireDouble({ [TOPIC]: PARTITIONS, [`${TOPIC}.dlq`]: 3 });
    settings = { brokers: [await double.start()], clientId: 'gaia', ssl: false };
  });

  afterEach(async () => {
    await double.stop();
  });

  function quietClient(processName: string) {
    const options = kafkaProducerOptions(processName, settings);
    return new ClientKafka({ ...options, client: { ...options.client!, logLevel: logLevel.NOTHING } });
  }

  it('ClientKafka with the production options sends keyed, headered records with acks=all from an idempotent producer', async () => {
    const client = quietClient('translation');
    await client.connect();
    const agents = ['agent-a', 'agent-b', 'agent-c', 'agent-d', 'agent-e'];
    const sent = Array.from({ length: 30 }, (_, i) => envelope(i, agents[i % agents.length]));
    try {
      for (const e of sent) await lastValueFrom(client.emit(TOPIC, toKafkaMessage(e)));
    } finally {
      await client.close();
    }

    expect(double.problems).toEqual([]);
    const records = double.recordsOf(TOPIC);
    expect(records.map((r) => JSON.parse(r.value!.toString()))).toEqual(sent);
    for (const [i, r] of records.entries()) {
      const e = sent[i];
      expect(r.key?.toString()).toBe(e.key);
      expect(r.partition).toBe(expectedPartition(e.key!));
      expect(r.headers).toEqual({
        'gaia-event-id': e.id,
        'gaia-topic': TOPIC,
        'gaia-occurred-at': e.occurredAt,
        'content-type': 'application/json',
        'x-request-id': e.requestId,
      });
    }
    // order per agent: each agent's events sit in one partition, in publish order
    for (const agent of agents) {
      const mine = records.filter((r) => r.key?.toString() === agent);
      expect(new Set(mine.map((r) => r.partition)).size).toBe(1);
      expect(mine.map((r) => JSON.parse(r.value!.toString()).payload.seq)).toEqual(
        sent.filter((e) => e.key === agent).map((e) => (e.payload as { seq: number }).seq),
      );
      expect(mine.map((r) => r.offset)).toEqual([...mine.map((r) => r.offset)].sort((a, b) => a - b));
    }
    // idempotent: one producer id from InitProducerId, gap-free sequences per partition; acks=all on every request
    expect(new Set(records.map((r) => r.producerId))).toEqual(new Set([4000n]));
    for (const p of new Set(records.map((r) => r.partition))) {
      const seqs = records.filter((r) => r.partition === p).map((r) => r.sequence);
      expect(seqs).toEqual(seqs.map((_, i) => i));
    }
    expect(double.requestLog.some((r) => r.apiKey === 22)).toBe(true);
    expect(double.produceRequests.length).toBe(sent.length);
    expect(double.produceRequests.every((r) => r.acks === -1 && r.transactionalId === null && r.clientId === 'gaia-translation-producer')).toBe(true);
  });

  it('the outbox relay’s KafkaDeliverer publishes the envelope keyed by its key', async () => {
    const client = quietClient('platform');
    await client.connect();
    const e = envelope(7, 'agent-z');
    try {
      await new KafkaDeliverer(client).deliver(BROKER_SUBSCRIBER, e);
    } finally {
      await client.close();
    }
    const [r] = double.recordsOf(TOPIC);
    expect(r.key?.toString()).toBe('agent-z');
    expect(r.partition).toBe(expectedPartition('agent-z'));
    expect(JSON.parse(r.value!.toString())).toEqual(e);
    expect(r.headers['gaia-event-id']).toBe(e.id);
    expect(double.produceRequests.every((p) => p.acks === -1)).toBe(true);
  });

  it('dead letters reach <topic>.dlq through a real kafkajs producer, with the original key, value and headers', async () => {
    const kafka = new Kafka({ ...(kafkaClientConfig(settings, 'gaia-billing-consumer') as object), brokers: settings.brokers, logLevel: logLevel.NOTHING });
    const producer = kafka.producer(kafkaProducerConfig() as never);
    await producer.connect();
    const e = envelope(3, 'agent-q');
    const parsed = { key: 'agent-q', value: e, headers: { 'gaia-event-id': e.id }, offset: '17', timestamp: '0', attributes: 0, size: 0 };
    const ctx = new KafkaContext([parsed as never, 5, TOPIC, {} as never, async () => undefined, producer as never]);
    const handler = withDeadLetter(
      async () => {
        throw { code: 'invalid_event', message: 'Invalid payload', status: 422 };
      },
      { consumerGroup: 'gaia-billing', now: () => new Date('2026-11-22T06:00:00.000Z') },
    );
    try {
      await handler(e, ctx);
    } finally {
      await producer.disconnect();
    }
    expect(double.problems).toEqual([]);
    const [dead] = double.recordsOf(`${TOPIC}.dlq`);
    expect(dead.key?.toString()).toBe('agent-q');
    expect(JSON.parse(dead.value!.toString())).toEqual(e);
    expect(dead.headers).toEqual({
      'gaia-event-id': e.id,
      'gaia-dlq-consumer-group': 'gaia-billing',
      'gaia-dlq-original-topic': TOPIC,
      'gaia-dlq-original-partition': '5',
      'gaia-dlq-original-offset': '17',
      'gaia-dlq-attempts': '1',
      'gaia-dlq-error': 'invalid_event: Invalid payload',
      'gaia-dlq-failed-at': '2026-11-22T06:00:00.000Z',
    });
  });

  it('fails instead of auto-creating an unknown topic', async () => {
    const kafka = new Kafka({ clientId: 'gaia-test', brokers: settings.brokers, logLevel: logLevel.NOTHING, retry: { retries: 0 } });
    const producer = kafka.producer({ ...(kafkaProducerConfig() as object), retry: { retries: 1, initialRetryTime: 1, maxRetryTime: 2 } });
    await producer.connect();
    try {
      await expect(producer.send({ topic: 'no.such.topic.v1', acks: -1, messages: [{ key: 'k', value: 'v' }] })).rejects.toThrow(/topic/i);
    } finally {
      await producer.disconnect();
    }
    expect(double.records).toEqual([]);
  });

  it('computes CRC-32C like Kafka (check value of "123456789")', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });
});
