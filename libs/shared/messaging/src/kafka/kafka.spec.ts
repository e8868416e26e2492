import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KafkaContext, KafkaParser, ServerKafka } from '@nestjs/microservices';
// The serializer ClientKafka applies to every emitted message (not re-exported by the package root).
import { KafkaRequestSerializer } from '@nestjs/microservices/serializers/kafka-request.serializer';
import { Partitioners } from 'kafkajs';
import { EVENTS, type EventEnvelope } from '@gaia/contracts';
import { kafkaSettingsFromEnv } from './kafka-settings';
import { kafkaConsumerOptions, kafkaProducerOptions } from './kafka-options.factory';
import { KAFKA_HEADERS, fromKafkaValue, toKafkaMessage, toProducerRecord } from './kafka-message';
import { withDeadLetter, isPoisonError } from './kafka-dead-letter';
import { GaiaKafkaServer } from './gaia-kafka.server';
import {
  KAFKA_TOPICS_BEGIN,
  KAFKA_TOPICS_END,
  deadLetterTopic,
  isLegalTopicName,
  kafkaTopicPlan,
  renderKafkaTopicsTable,
  topicsToCreate,
} from './kafka-topics';

const settings = kafkaSettingsFromEnv({ KAFKA_BROKERS: 'k1:9092, k2:9093', KAFKA_CLIENT_ID: 'gaia' });

function envelope(over: Partial<EventEnvelope> = {}): EventEnvelope {
  return {
    id: '0b6f0a52-1d7e-4d1c-9d5e-2a3c4b5d6e7f',
    topic: 'usage.recorded.v1',
    key: 'agent-42',
    occurredAt: '2026-11-22T05:00:00.000Z',
    payload: { requestId: 'r1', agentId: 'agent-42' },
    requestId: 'req-9',
    ...over,
  };
}

describe('kafkaSettingsFromEnv', () => {
  it('reads brokers, client id, TLS and SASL from the documented variables', () => {
    expect(
      kafkaSettingsFromEnv({
        KAFKA_BROKERS: ' b1:9092 ,b2:9092,',
        KAFKA_CLIENT_ID: 'gaia-prod',
        KAFKA_SSL: 'true',
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: 'p',
      }),
    ).toEqual({ brokers: ['b1:9092', 'b2:9092'], clientId: 'gaia-prod', ssl: true, sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p' } });
    expect(kafkaSettingsFromEnv({ KAFKA_BROKERS: 'b:1' })).toEqual({ brokers: ['b:1'], clientId: 'gaia', ssl: false });
  });

  it('rejects missing or malformed brokers and incomplete SASL', () => {
    expect(() => kafkaSettingsFromEnv({})).toThrow(/KAFKA_BROKERS/);
    expect(() => kafkaSettingsFromEnv({ KAFKA_BROKERS: 'http://b:9092' })).toThrow(/host:port/);
    expect(() => kafkaSettingsFromEnv({ KAFKA_BROKERS: 'b:1', KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toThrow(
      /KAFKA_SASL_MECHANISM/,
    );
    expect(() => kafkaSettingsFromEnv({ KAFKA_BROKERS: 'b:1', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' })).toThrow(/KAFKA_SASL_PASSWORD/);
  });
});

describe('Kafka transport options', () => {
  it('gives each service one consumer group shared by its replicas, without Nest postfixes', () => {
    const server = new ServerKafka(kafkaConsumerOptions('billing', settings));
    const internals = server as unknown as { groupId: string; clientId: string; brokers: string[] };
    expect(internals.groupId).toBe('gaia-billing');
    expect(internals.clientId).toBe('gaia-billing-consumer');
    expect(internals.brokers).toEqual(['k1:9092', 'k2:9093']);
  });

  it('configures consumers for at-least-once processing from the start of new groups', () => {
    const o = kafkaConsumerOptions('ingestion', settings);
    expect(o.consumer).toMatchObject({ groupId: 'gaia-ingestion', allowAutoTopicCreation: false, readUncommitted: false });
    expect(o.subscribe).toEqual({ fromBeginning: true });
    expect(o.run).toMatchObject({ autoCommit: true });
    expect(o.send).toMatchObject({ acks: -1 });
  });

  it('makes the producer idempotent with acks=all and the Java-compatible partitioner', () => {
    const o = kafkaProducerOptions('translation', settings);
    expect(o.producerOnlyMode).toBe(true);
    expect(o.postfixId).toBe('');
    expect(o.client).toMatchObject({ clientId: 'gaia-translation-producer', brokers: ['k1:9092', 'k2:9093'], ssl: false });
    expect(o.client).not.toHaveProperty('sasl');
    expect(o.producer).toMatchObject({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    expect(o.producer?.createPartitioner).toBe(Partitioners.DefaultPartitioner);
    expect(o.send).toEqual({ acks: -1, timeout: 30_000 });
  });

  it('passes SASL and TLS to the kafkajs client', () => {
    const secure = kafkaSettingsFromEnv({
      KAFKA_BROKERS: 'b:9096',
      KAFKA_SSL: '1',
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
    });
    expect(kafkaProducerOptions('agents', secure).client).toMatchObject({ ssl: true, sasl: { mechanism: 'plain', username: 'u', password: 'p' } });
  });
});

describe('Kafka records', () => {
  it('keys the record by the envelope key, with ids in headers and the envelope as JSON value', () => {
    const env = envelope();
    expect(toProducerRecord(env)).toEqual({
      topic: 'usage.recorded.v1',
      messages: [
        {
          key: 'agent-42',
          value: JSON.stringify(env),
          headers: {
            'gaia-event-id': env.id,
            'gaia-topic': 'usage.recorded.v1',
            'gaia-occurred-at': '2026-11-22T05:00:00.000Z',
            'content-type': 'application/json',
            'x-request-id': 'req-9',
          },
        },
      ],
    });
    const keyless = toKafkaMessage(envelope({ key: null, requestId: null }));
    expect(keyless.key).toBe(env.id);
    expect(keyless.headers).not.toHaveProperty('x-request-id');
  });

  it('survives the Nest Kafka serializer and parser unchanged', () => {
    const env = envelope();
    const outgoing = new KafkaRequestSerializer().serialize(toKafkaMessage(env) as never) as { key: string; value: string; headers: Record<string, string> };
    const incoming = new KafkaParser().parse({
      key: Buffer.from(outgoing.key),
      value: Buffer.from(outgoing.value),
      headers: Object.fromEntries(Object.entries(outgoing.headers).map(([k, v]) => [k, Buffer.from(v)])),
    } as never) as { key: string; value: unknown; headers: Record<string, string> };
    expect(incoming.value).toEqual(env);
    expect(incoming.key).toBe('agent-42');
    expect(incoming.headers[KAFKA_HEADERS.eventId]).toBe(env.id);
    expect(fromKafkaValue(Buffer.from(outgoing.value))).toEqual(env);
    expect(() => fromKafkaValue(Buffer.from('{"x":1}'))).toThrow(/envelope/);
  });

  it('keeps every agent on one partition (ordering per agent) and spreads agents over partitions', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 12 }, (_, i) => ({ partitionId: i, leader: 0, replicas: [0], isr: [0], partitionErrorCode: 0 }));
    const seen = new Map<string, Set<number>>();
    for (let i = 0; i < 600; i++) {
      const agent = `agent-${i % 40}`;
      const message = toKafkaMessage(envelope({ id: `e${i}`, key: agent }));
      const partition = partitioner({ topic: 'usage.recorded.v1', partitionMetadata, message });
      if (!seen.has(agent)) seen.set(agent, new Set());
      seen.get(agent)!.add(partition);
    }
    for (const partitions of seen.values()) expect(partitions.size).toBe(1);
    const used = new Set([...seen.values()].map((s) => [...s][0]));
    expect(used.size).toBeGreaterThan(6);
  });
});

describe('withDeadLetter', () => {
  interface Sent {
    topic: string;
    acks?: number;
    messages: { key: unknown; value: unknown; headers: Record<string, string> }[];
  }

  function context(sent: Sent[], beats: { n: number }, failSend = false): KafkaContext {
    // What ServerKafka hands to handlers: the parsed message (value already JSON-decoded), partition, topic, consumer, heartbeat, producer.
    const message = {
      key: 'agent-7',
      value: envelope({ key: 'agent-7' }),
      headers: { 'gaia-event-id': 'ev-1', 'gaia-topic': 'usage.recorded.v1' },
      offset: '41',
      timestamp: '0',
      attributes: 0,
      size: 0,
    };
    const producer = {
      send: async (record: Sent) => {
        if (failSend) throw new Error('broker down');
        sent.push(record);
        return [];
      },
    };
    return new KafkaContext([message as never, 3, 'usage.recorded.v1', {} as never, async () => void beats.n++, producer as never]);
  }

  const fixedNow = () => new Date('2026-11-22T06:00:00.000Z');

  it('returns the handler result and publishes nothing when the handler succeeds', async () => {
    const sent: Sent[] = [];
    const handler = withDeadLetter(async () => 'ok', { consumerGroup: 'gaia-billing', delay: async () => undefined });
    await expect(handler({}, context(sent, { n: 0 }))).resolves.toBe('ok');
    expect(sent).toEqual([]);
  });

  it('retries transient failures in place with backoff and heartbeats', async () => {
    const sent: Sent[] = [];
    const beats = { n: 0 };
    const waits: number[] = [];
    let calls = 0;
    const handler = withDeadLetter(
      async () => {
        calls++;
        if (calls < 3) throw new Error('database restarting');
        return 'done';
      },
      { consumerGroup: 'gaia-billing', delay: async (ms) => void waits.push(ms) },
    );
    await expect(handler({}, context(sent, beats))).resolves.toBe('done');
    expect(calls).toBe(3);
    expect(waits).toEqual([200, 400]);
    expect(beats.n).toBe(2);
    expect(sent).toEqual([]);
  });

  it('dead-letters to <topic>.dlq after maxAttempts, keeping key, value and headers', async () => {
    const sent: Sent[] = [];
    let calls = 0;
    const dead: unknown[] = [];
    const handler = withDeadLetter(
      async () => {
        calls++;
        throw { code: 'internal', message: 'boom', status: 500 };
      },
      { consumerGroup: 'gaia-billing', maxAttempts: 4, delay: async () => undefined, now: fixedNow, onDeadLetter: (i) => dead.push(i) },
    );
    await expect(handler({}, context(sent, { n: 0 }))).resolves.toBeUndefined();
    expect(calls).toBe(4);
    expect(sent).toEqual([
      {
        topic: 'usage.recorded.v1.dlq',
        acks: -1,
        timeout: 30_000,
        messages: [
          {
            key: 'agent-7',
            value: JSON.stringify(envelope({ key: 'agent-7' })),
            headers: {
              'gaia-event-id': 'ev-1',
              'gaia-topic': 'usage.recorded.v1',
              'gaia-dlq-consumer-group': 'gaia-billing',
              'gaia-dlq-original-topic': 'usage.recorded.v1',
              'gaia-dlq-original-partition': '3',
              'gaia-dlq-original-offset': '41',
              'gaia-dlq-attempts': '4',
              'gaia-dlq-error': 'internal: boom',
              'gaia-dlq-failed-at': '2026-11-22T06:00:00.000Z',
            },
          },
        ],
      },
    ]);
    expect(dead).toEqual([{ topic: 'usage.recorded.v1', partition: 3, offset: '41', attempts: 4, error: 'internal: boom' }]);
  });

  it('dead-letters poison events at once', async () => {
    const sent: Sent[] = [];
    let calls = 0;
    const handler = withDeadLetter(
      async () => {
        calls++;
        throw { code: 'invalid_event', message: 'Invalid payload for usage.recorded.v1', status: 422 };
      },
      { consumerGroup: 'gaia-billing', delay: async () => undefined },
    );
    await handler({}, context(sent, { n: 0 }));
    expect(calls).toBe(1);
    expect(sent[0].messages[0].headers['gaia-dlq-attempts']).toBe('1');
    expect(isPoisonError({ code: 'conflict', status: 409 })).toBe(false);
    expect(isPoisonError({ code: 'not_found', status: 404 })).toBe(true);
    expect(isPoisonError(new Error('x'))).toBe(false);
  });

  it('lets kafkajs redeliver when the dead letter cannot be published', async () => {
    const handler = withDeadLetter(
      async () => {
        throw new Error('boom');
      },
      { consumerGroup: 'gaia-billing', maxAttempts: 1 },
    );
    await expect(handler({}, context([], { n: 0 }, true))).rejects.toThrow('broker down');
  });
});

describe('GaiaKafkaServer', () => {
  it('wraps event handlers with retries and dead letters, leaves request handlers alone', async () => {
    const server = GaiaKafkaServer.forConsumer('billing', settings, { delay: async () => undefined, maxAttempts: 2 });
    expect((server as unknown as { groupId: string }).groupId).toBe('gaia-billing');
    let calls = 0;
    server.addHandler(
      'usage.recorded.v1',
      (async () => {
        calls++;
        throw new Error('fails');
      }) as never,
      true,
    );
    const rpc = (async () => 'answer') as never;
    server.addHandler('some.rpc', rpc, false);
    const sent: { topic: string }[] = [];
    const ctx = new KafkaContext([
      { key: 'a', value: '{}', headers: {}, offset: '0' } as never,
      0,
      'usage.recorded.v1',
      {} as never,
      async () => undefined,
      { send: async (r: { topic: string }) => void sent.push(r) } as never,
    ]);
    const handler = server.getHandlerByPattern('usage.recorded.v1')!;
    await handler({}, ctx);
    expect(calls).toBe(2);
    expect(sent.map((s) => s.topic)).toEqual(['usage.recorded.v1.dlq']);
    expect(server.getHandlerByPattern('some.rpc')).toBe(rpc);
  });
});

describe('Kafka topic plan', () => {
  it('has one legal topic and one dead-letter topic per event type, and a consumer group per subscriber', () => {
    const plan = kafkaTopicPlan();
    expect(plan.map((t) => t.topic)).toEqual(Object.keys(EVENTS).sort());
    for (const t of plan) {
      expect(isLegalTopicName(t.topic)).toBe(true);
      expect(t.deadLetterTopic).toBe(deadLetterTopic(t.topic));
      expect(t.consumerGroups).toEqual([...EVENTS[t.topic as keyof typeof EVENTS].subscribers].map((s) => `gaia-${s}`).sort());
      expect(t.partitions).toBeGreaterThan(0);
    }
    const created = topicsToCreate(plan);
    expect(created).toHaveLength(plan.length * 2);
    expect(created.every((c) => c.replicationFactor === 3 && c.configEntries.some((e) => e.name === 'min.insync.replicas' && e.value === '2'))).toBe(true);
    expect(isLegalTopicName('bad topic')).toBe(false);
  });

  it('docs/kafka-topics.md lists exactly the topics of the event registry', () => {
    // Regenerate with: UPDATE_KAFKA_TOPICS_DOC=1 npx jest -c libs/shared/messaging/jest.config.js kafka.spec
    const file = join(__dirname, '../../../../../docs/kafka-topics.md');
    const doc = readFileSync(file, 'utf8');
    const start = doc.indexOf(KAFKA_TOPICS_BEGIN);
    const end = doc.indexOf(KAFKA_TOPICS_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const current = doc.slice(start, end + KAFKA_TOPICS_END.length);
    const expected = renderKafkaTopicsTable();
    if (process.env['UPDATE_KAFKA_TOPICS_DOC'] === '1' && current !== expected) {
      writeFileSync(file, doc.replace(current, expected));
      return;
    }
    if (current !== expected) {
      throw new Error(
        `docs/kafka-topics.md is out of date with the event registry. Regenerate it with:\n  UPDATE_KAFKA_TOPICS_DOC=1 npx jest -c libs/shared/messaging/jest.config.js kafka.spec\n\nexpected:\n${expected}`,
      );
    }
  });
});
